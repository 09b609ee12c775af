// loadMcp against the official server-everything, over stdio and over streamable HTTP.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadMcp, type McpSource } from "../../src/main/mcp/source";
import { everythingStdioCommand, startEverythingHttp, type RunningHttpServer } from "../fixtures";
import { scriptedPerson, type ScriptedPerson } from "../helpers/person";
import { outputOf } from "../helpers/tool-output";

const filled = {
  name: "Ada Lovelace",
  check: true,
  email: "ada@example.com",
  homepage: "https://ada.example.org",
  birthdate: "1815-12-10",
  integer: 7,
  number: 2.5,
  untitledSingleSelectEnum: "Rachel",
  untitledMultipleSelectEnum: ["Piano", "Drums"],
  titledSingleSelectEnum: "hero-3",
  titledMultipleSelectEnum: ["fish-2"],
  legacyTitledEnum: "pet-2",
};

const transports: [string, () => Promise<{ config: unknown; stop: () => Promise<void> }>][] = [
  ["stdio", async () => ({ config: { mcpServers: { everything: everythingStdioCommand() } }, stop: async () => {} })],
  [
    "streamable HTTP",
    async () => {
      const server: RunningHttpServer = await startEverythingHttp();
      return { config: { mcpServers: { everything: { url: server.url } } }, stop: () => server.close() };
    },
  ],
];

describe.each(transports)("server-everything over %s", (_label, start) => {
  let source: McpSource;
  let person: ScriptedPerson;
  let stop: () => Promise<void>;
  let policy: (id: string) => { ok: boolean; data?: Record<string, unknown>; reason?: string } | undefined = () => undefined;

  beforeAll(async () => {
    const started = await start();
    stop = started.stop;
    person = scriptedPerson((entry) => policy(entry.request.id));
    source = await loadMcp(started.config, { waitFor: person.waitFor });
  });

  afterAll(async () => {
    await source?.close();
    await stop?.();
  });

  const tool = (name: string) => {
    const found = source.tools.find((t) => t.name === `everything_${name}`);
    if (!found) throw new Error(`no tool everything_${name}; have ${source.tools.map((t) => t.name).join(", ")}`);
    return found;
  };

  it("connects and exposes the tools under sanitized names", () => {
    expect(source.status).toEqual({ everything: "connected" });
    expect(source.tools.map((t) => t.name)).toEqual(expect.arrayContaining(["everything_echo", "everything_trigger-elicitation-request"]));
    expect(tool("echo")).toMatchObject({ source: "mcp", server: "everything", tool: "echo" });
  });

  it("echo maps the text result", async () => {
    await expect(outputOf(tool("echo").execute({ message: "hi there" }))).resolves.toMatchObject({ output: "Echo: hi there", isError: false });
  });

  it("structuredContent comes back as its JSON", async () => {
    const result = await outputOf(tool("get-structured-content").execute({ location: "New York" }));
    expect(result.isError).toBe(false);
    expect(JSON.parse(result.output)).toMatchObject({ temperature: expect.any(Number) });
  });

  it("trigger-elicitation-request reaches waitFor as an input Request with all 13 properties", async () => {
    policy = () => ({ ok: true, data: filled });
    const result = await outputOf(tool("trigger-elicitation-request").execute({}));
    const question = person.seen.at(-1)!;
    expect(question.source).toEqual({ server: "everything", tool: "trigger-elicitation-request" });
    expect(question.request.kind).toBe("input");
    expect(question.request.id).toMatch(/^elc-/);
    expect(question.request.prompt).toBe("Please provide inputs for the following fields:");
    expect(question.request).not.toHaveProperty("url");
    const schema = question.request.data?.schema as { properties: Record<string, unknown>; required: string[] };
    expect(Object.keys(schema.properties)).toHaveLength(13);
    expect(schema.required).toEqual(["name"]);
    // The server reports the values it received.
    expect(result.isError).toBe(false);
    expect(result.output).toContain("User provided the requested information");
    expect(result.output).toContain("- Name: Ada Lovelace");
    expect(result.output).toContain("- Email: ada@example.com");
    expect(result.output).toContain("- Favorite Integer: 7");
    expect(result.output).toContain('"legacyTitledEnum": "pet-2"');
    // Untouched fields carried their defaults.
    expect(result.output).toContain('"firstLine": "It was a dark and stormy night."');
  });

  it("declining reaches the server as decline, cancelling as cancel", async () => {
    policy = () => ({ ok: false, reason: "declined" });
    const declined = await outputOf(tool("trigger-elicitation-request").execute({}));
    expect(declined.output).toContain("User declined");
    expect(declined.output).toContain('"action": "decline"');
    policy = () => ({ ok: false, reason: "cancelled" });
    const cancelled = await outputOf(tool("trigger-elicitation-request").execute({}));
    expect(cancelled.output).toContain("User cancelled");
    expect(cancelled.output).toContain('"action": "cancel"');
  });

  it("trigger-url-elicitation reaches waitFor as an authorization Request with the url", async () => {
    policy = () => ({ ok: true });
    const url = "https://example.com/authorize?state=xyz";
    const result = await outputOf(tool("trigger-url-elicitation").execute({ url, message: "Sign in to Example" }));
    const question = person.seen.at(-1)!;
    expect(question.request).toEqual({ id: expect.stringMatching(/^elc-/), kind: "authorization", prompt: "Sign in to Example", url });
    expect(result.isError).toBe(false);
  });
});
