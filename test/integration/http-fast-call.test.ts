// The raw paths for tools/call (src/main/mcp/call-paths/http-fast.ts over streamable HTTP, stdio-raw.ts
// over stdio), against a real SDK server in its own process (test/fixtures/http-calls.mjs): plain
// calls skip the SDK client (the server sees our string ids), and whatever else comes during the
// call (an elicitation, a log message), a JSON-RPC error, a cancel and an output schema behave as
// on the SDK's path.
import { spawn, type ChildProcess } from "node:child_process";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadMcp } from "../../src/main/mcp/source";
import type { McpSource, McpTool } from "../../src/main/mcp/types";
import { toToolOutput } from "../../src/main/mcp/result";
import { fixturesDir } from "../fixtures";
import { becomesTrue } from "../helpers/poll";
import { outputOf } from "../helpers/tool-output";

let server: ChildProcess | undefined;
let source: McpSource;
const asked: string[] = [];
const waitFor = async (request: { id: string; prompt: string }) => {
  asked.push(request.prompt);
  return { id: request.id, ok: true, data: { name: "Ada" } };
};

function tool(name: string): McpTool {
  const found = source.tools.find((t) => t.name === `calls_${name}`);
  if (!found) throw new Error(`no tool ${name}: ${JSON.stringify(source.servers())}`);
  return found;
}

async function seen(): Promise<{ ids: unknown[]; cancelled: unknown[] }> {
  return JSON.parse((await outputOf(tool("calls").execute({}))).output);
}

for (const transport of ["streamable-http", "stdio"] as const) {
describe(`tools/call over ${transport}`, () => {
beforeAll(async () => {
  if (transport === "stdio") {
    source = await loadMcp({ mcpServers: { calls: { command: process.execPath, args: [join(fixturesDir, "http-calls.mjs"), "--stdio"] } } }, { waitFor });
  } else {
    server = spawn(process.execPath, [join(fixturesDir, "http-calls.mjs")], { stdio: ["ignore", "pipe", "inherit"] });
    const child = server;
    const url = await new Promise<string>((resolve, reject) => {
      let out = "";
      child.stdout!.on("data", (chunk) => {
        out += String(chunk);
        const match = /^LISTENING (\S+)$/m.exec(out);
        if (match) resolve(match[1]);
      });
      child.once("exit", (code) => reject(new Error(`http-calls exited (${code})`)));
    });
    source = await loadMcp({ mcpServers: { calls: { type: "http", url, protocol: "legacy" } } }, { waitFor });
  }
  expect(source.servers()[0]).toMatchObject({ state: "connected", transport });
}, 20_000);

afterAll(async () => {
  await source?.close();
  server?.kill();
});

  it("goes as our own POST, not through the SDK client, and returns the result as sent", async () => {
    const result = await tool("echo").execute({ text: "hi" });
    expect(toToolOutput(result)).toMatchObject({ output: "echo: hi", isError: false });
    expect(result).toEqual({ content: [{ type: "text", text: "echo: hi" }] });
    const ids = (await seen()).ids;
    expect(String(ids.at(-1))).toMatch(/^tnc-\d+$/);
  });

  it("answers an elicitation the server sends on the call's stream (the SDK client's handler runs)", async () => {
    const out = await outputOf(tool("ask").execute({}));
    expect(out.output).toBe("answer: accept Ada");
    expect(asked).toContain("Your name?");
  });

  it("passes a log message sent on the call's stream to the caller", async () => {
    const logs: Record<string, unknown>[] = [];
    const out = await outputOf(tool("log").execute({}, { onlog: (log) => logs.push(log) }));
    expect(out.output).toBe("logged");
    expect(logs).toEqual([expect.objectContaining({ level: "info", data: { said: "hello from the call" } })]);
  });

  it("turns a JSON-RPC error into the same error as the SDK's path (-32042 with nothing to open: not completed)", async () => {
    await expect(tool("fail").execute({})).rejects.toMatchObject({ code: -32042, message: expect.stringContaining("needs a browser step that was not completed") });
  });

  it("tells the server when the caller gives up on a call", async () => {
    const abort = new AbortController();
    const call = tool("slow").execute({}, { signal: abort.signal });
    await new Promise((resolve) => setTimeout(resolve, 200));
    abort.abort(new Error("the agent cancelled"));
    await expect(call).rejects.toThrow();
    await becomesTrue(async () => (await seen()).cancelled.length > 0, 2500);
    expect(String((await seen()).cancelled[0])).toMatch(/^tnc-\d+$/);
  });

  it("leaves a tool with an output schema to the SDK client, which checks the result against it", async () => {
    const out = await outputOf(tool("typed").execute({}));
    expect(out).toMatchObject({ output: '{"n":1}', isError: false });
    expect(typeof (await seen()).ids.at(-1)).toBe("number");
  });
});
}
