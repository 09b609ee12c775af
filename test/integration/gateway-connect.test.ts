// The `connect` shim as a real child process: an agent that only launches stdio servers reaches
// server-everything through it, and the server's question is answered in the companion's Inbox.
import { spawn } from "node:child_process";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Client } from "@modelcontextprotocol/client";
import { StdioClientTransport } from "@modelcontextprotocol/client/stdio";
import { repoRoot } from "../fixtures";
import { nextQuestion, startCompanion, textOf, until, type Companion } from "./gateway-harness";

const bin = join(repoRoot, "bin", "toolnexus-companion");
let companion: Companion;

beforeAll(async () => {
  companion = await startCompanion();
});
afterAll(async () => {
  await companion?.close();
});

function shimEnv(extra: Record<string, string>): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [k, v] of Object.entries(process.env)) if (v !== undefined) env[k] = v;
  return { ...env, ...extra };
}

async function connectViaShim(name: string, shimArgs: string[] = []): Promise<{ client: Client; transport: StdioClientTransport }> {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [bin, "connect", ...shimArgs],
    env: shimEnv({ TOOLNEXUS_COMPANION_URL: companion.listener.url, TOOLNEXUS_COMPANION_TOKEN: companion.token }),
    stderr: "pipe",
  });
  const client = new Client({ name, version: "1.0.0" }, { capabilities: {} });
  await client.connect(transport);
  return { client, transport };
}

/** Runs the CLI without blocking this process (the companion under test lives here). */
function runCli(args: string[], env: Record<string, string>): Promise<{ status: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [bin, ...args], { env: shimEnv(env), stdio: ["pipe", "pipe", "pipe"] });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (c) => (stdout += String(c)));
    child.stderr.on("data", (c) => (stderr += String(c)));
    child.stdin.end();
    child.on("close", (status) => resolve({ status, stdout, stderr }));
  });
}

describe("toolnexus-companion connect", () => {
  it("bridges an stdio agent to the gateway: tools, echo, and a question answered by the person", async () => {
    const { client } = await connectViaShim("stdio-agent");
    try {
      const names = (await client.listTools()).tools.map((t) => t.name);
      expect(names).toContain("everything_echo");
      expect(textOf(await client.callTool({ name: "everything_echo", arguments: { message: "via shim" } }))).toBe("Echo: via shim");

      const question = nextQuestion(companion, (e) => e.source.agent === "stdio-agent");
      const call = client.callTool({ name: "everything_trigger-elicitation-request", arguments: {} });
      const entry = await question;
      expect(entry.source).toEqual({ server: "everything", agent: "stdio-agent", tool: "trigger-elicitation-request" });
      companion.inbox.answer(entry.request.id, { ok: true, data: { name: "Grace Hopper" } });
      const text = textOf(await call);
      expect(text).toContain("✅ User provided the requested information!");
      expect(text).toContain("- Name: Grace Hopper");
    } finally {
      await client.close();
    }
  });

  it("with --agent, calls as that agent with its own credential: the question names it, whatever clientInfo says", async () => {
    const { client } = await connectViaShim("some-client-name", ["--agent", "cursor"]);
    try {
      const question = nextQuestion(companion, (e) => e.source.server === "everything" && e.source.agent === "cursor");
      const call = client.callTool({ name: "everything_trigger-elicitation-request", arguments: {} });
      const entry = await question;
      companion.inbox.answer(entry.request.id, { ok: false, reason: "declined" });
      await call;
    } finally {
      await client.close();
    }
  });

  it("ends its gateway session (withdrawing the question) when the agent goes away", async () => {
    const { client } = await connectViaShim("stdio-quitter");
    const question = nextQuestion(companion, (e) => (e.source.agent ?? "").includes("stdio-quitter"));
    const call = client.callTool({ name: "everything_trigger-elicitation-request", arguments: {} }).catch((e: Error) => e);
    const entry = await question;
    await client.close(); // closes the shim's stdin, then kills it
    await until(() => companion.withdrawn.includes(entry.request.id), 10_000);
    await until(() => !companion.gateway.sessions().some((s) => s.agent === "stdio-quitter"), 10_000);
    await call;
  });

  it("exits with a clear message when the companion is not running", async () => {
    const run = await runCli(["connect"], { TOOLNEXUS_COMPANION_URL: "http://127.0.0.1:9", TOOLNEXUS_COMPANION_TOKEN: "x" });
    expect(run.status).toBe(1);
    expect(run.stderr).toMatch(/the companion is not running at http:\/\/127\.0\.0\.1:9/);
    expect(run.stdout).toBe("");
  });

  it("exits with a clear message when the token is wrong (the companion's proof does not match it)", async () => {
    const run = await runCli(["connect"], { TOOLNEXUS_COMPANION_URL: companion.listener.url, TOOLNEXUS_COMPANION_TOKEN: "wrong" });
    expect(run.status).toBe(1);
    expect(run.stderr).toMatch(/could not prove it is the companion\); if the companion does run there, the token given is not its current one/);
  });
});
