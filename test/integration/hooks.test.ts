// The permission hooks end to end: `node bin/toolnexus-companion hook <agent>` as the agent runs
// it (the documented hook input on stdin, url and token in the environment) against a real
// companion (Inbox, /v1/requests, loopback listener in this process), and a scripted person.
// Each case checks the exact stdout, the exit code, and that it ends within the hook's deadline.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { spawn } from "node:child_process";
import { readFileSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { join } from "node:path";
import { nextQuestion, startCompanion, until, type Companion } from "./gateway-harness";
import { repoRoot } from "../e2e/harness";
import { PROOF_PATH, proofRoute } from "../../src/main/http/companion-proof";

const BIN = join(repoRoot, "bin", "toolnexus-companion");
const FIXTURES = join(repoRoot, "test", "fixtures", "hooks");
const ALLOW = '{"hookSpecificOutput":{"hookEventName":"PermissionRequest","decision":{"behavior":"allow"}}}\n';
const deny = (message: string) => `${JSON.stringify({ hookSpecificOutput: { hookEventName: "PermissionRequest", decision: { behavior: "deny", message } } })}\n`;
/** The deadline counts from the hook's spawn; past it, only writing and exiting remain. */
const EXIT_MS = 2500;

let companion: Companion;

beforeAll(async () => {
  companion = await startCompanion({ everything: false });
});
afterAll(async () => {
  await companion?.close();
});

interface HookRun {
  code: number | null;
  stdout: string;
  stderr: string;
  ms: number;
}

function hook(agent: string, input: string, env: Record<string, string>, args: string[] = []): { pid: number; done: Promise<HookRun> } {
  const started = Date.now();
  const child = spawn(process.execPath, [BIN, "hook", agent, ...args], {
    cwd: repoRoot,
    env: { ...process.env, TOOLNEXUS_HOOK_TIMEOUT: "", ...env },
    stdio: ["pipe", "pipe", "pipe"],
  });
  let stdout = "";
  let stderr = "";
  child.stdout.on("data", (c: Buffer) => (stdout += c.toString("utf8")));
  child.stderr.on("data", (c: Buffer) => (stderr += c.toString("utf8")));
  child.stdin.end(input);
  const done = new Promise<HookRun>((resolve) => child.on("close", (code) => resolve({ code, stdout, stderr, ms: Date.now() - started })));
  return { pid: child.pid!, done };
}

const fixture = (name: string) => readFileSync(join(FIXTURES, name), "utf8");
const toCompanion = () => ({ TOOLNEXUS_COMPANION_URL: companion.listener.url, TOOLNEXUS_COMPANION_TOKEN: companion.token });
const fromHook = (agent: string) => (e: { source: { agent?: string }; request: { kind: string } }) => e.source.agent === agent && e.request.kind === "approval";

describe("hook claude-code against a running companion", () => {
  it("allow: the person's Allow becomes Claude Code's allow decision", async () => {
    const question = nextQuestion(companion, (e) => fromHook("Claude Code")(e) && e.request.prompt.includes("rm -rf build"));
    const run = hook("claude-code", fixture("claude-code-bash.json"), toCompanion());
    const entry = await question;
    expect(entry.request).toMatchObject({
      kind: "approval",
      prompt: "Allow Claude Code to run: rm -rf build && npm run build?",
      data: { agent: "Claude Code", project: "/home/ada/src/shop", tool: "Bash", action: { kind: "shell", command: "rm -rf build && npm run build" } },
    });
    // Withdrawn at the hook's deadline by the Inbox too, not only by the closed connection.
    expect(Date.parse(entry.request.expiresAt!) - Date.now()).toBeLessThanOrEqual(55_000);
    companion.inbox.answer(entry.request.id, { ok: true });
    const result = await run.done;
    expect(result).toMatchObject({ code: 0, stdout: ALLOW });
  });

  it("deny with a message: the agent gets deny and what reached it from the companion", async () => {
    const question = nextQuestion(companion, (e) => fromHook("Claude Code")(e) && e.request.prompt.includes("cart.ts"));
    const run = hook("claude-code", fixture("claude-code-edit.json"), toCompanion());
    const entry = await question;
    expect(entry.request.data).toMatchObject({ action: { kind: "edit", files: [{ path: "/home/ada/src/shop/src/cart.ts", added: 2, removed: 1 }] } });
    const delivered = companion.inbox.answer(entry.request.id, { ok: false, reason: "declined", data: { message: "Keep total() pure; add a new function." } });
    const result = await run.done;
    // The Inbox keeps the person's note on a declined approval; the hook passes it on verbatim.
    expect(delivered.data?.message).toBe("Keep total() pure; add a new function.");
    const message = "Keep total() pure; add a new function.";
    expect(result).toMatchObject({ code: 0, stdout: deny(message) });
  });

  it("cancel (\"Answer in the terminal\"): no verdict, nothing on stdout, exit 0", async () => {
    const question = nextQuestion(companion, (e) => fromHook("Claude Code")(e) && e.request.prompt.includes("create_issue"));
    const run = hook("claude-code", fixture("claude-code-mcp.json"), toCompanion());
    const entry = await question;
    companion.inbox.answer(entry.request.id, { ok: false, reason: "cancelled" });
    const result = await run.done;
    expect(result).toMatchObject({ code: 0, stdout: "" });
    expect(result.stderr).toMatch(/no verdict, Claude Code asks in its terminal: .*cancelled/);
  });

  it("expiry: unanswered at the deadline, the question leaves the Inbox and the hook gives no verdict in time", async () => {
    const question = nextQuestion(companion, (e) => fromHook("Claude Code")(e) && e.request.prompt.includes("WebFetch"));
    // Long enough for a slow start to still post the question, short enough for a test.
    const run = hook("claude-code", fixture("claude-code-webfetch.json"), toCompanion(), ["--timeout", "8"]);
    const entry = await question;
    const result = await run.done;
    expect(result).toMatchObject({ code: 0, stdout: "" });
    expect(result.stderr).toMatch(/deadline passed|expired/);
    expect(result.ms).toBeGreaterThanOrEqual(7000);
    expect(result.ms).toBeLessThan(8000 + EXIT_MS);
    await until(() => companion.inbox.get(entry.request.id) === undefined, 2000);
  });

  it("companion down (connection refused): no verdict, long before the deadline", async () => {
    const closed = createServer();
    await new Promise<void>((r) => closed.listen(0, "127.0.0.1", r));
    const { port } = closed.address() as AddressInfo;
    await new Promise<void>((r) => closed.close(() => r()));
    const result = await hook("claude-code", fixture("claude-code-bash.json"), { TOOLNEXUS_COMPANION_URL: `http://127.0.0.1:${port}`, TOOLNEXUS_COMPANION_TOKEN: "x" }).done;
    expect(result).toMatchObject({ code: 0, stdout: "" });
    expect(result.stderr).toMatch(/not running|refused/);
    // Only startup time (seconds on this shared machine), nowhere near the 55 s deadline.
    expect(result.ms).toBeLessThan(15_000);
  });

  it("token wrong (rotated): no verdict, the proof fails before the token is sent, and no question reaches the person", async () => {
    const before = companion.added.length;
    const result = await hook("claude-code", fixture("claude-code-bash.json"), { ...toCompanion(), TOOLNEXUS_COMPANION_TOKEN: "wrong-token" }).done;
    expect(result).toMatchObject({ code: 0, stdout: "" });
    expect(result.stderr).toMatch(/could not prove it is the companion\); if the companion does run there, the token given is not its current one/);
    expect(companion.added.length).toBe(before);
  });

  it("wired to the wrong event or fed garbage: no verdict, never an exit 2 (which Claude Code reads as deny)", async () => {
    for (const input of [fixture("claude-code-pretooluse.json"), "not json", ""]) {
      const result = await hook("claude-code", input, toCompanion()).done;
      expect(result).toMatchObject({ code: 0, stdout: "" });
    }
    const usage = await hook("cursor", "{}", toCompanion()).done;
    expect(usage.code).toBe(1);
    expect(usage.stdout).toBe("");
  });

  it("the agent ending the hook (SIGTERM) withdraws its question", async () => {
    const question = nextQuestion(companion, (e) => fromHook("Claude Code")(e) && e.request.prompt.includes("write"));
    const run = hook("claude-code", fixture("claude-code-write.json"), toCompanion());
    const entry = await question;
    process.kill(run.pid, "SIGTERM");
    const result = await run.done;
    expect(result.stdout).toBe("");
    await until(() => companion.inbox.get(entry.request.id) === undefined, 2000);
  });
});

describe("hook codex against a running companion", () => {
  it("allow and deny in Codex's schema", async () => {
    let question = nextQuestion(companion, (e) => fromHook("Codex")(e) && e.request.prompt.includes("/tmp/example"));
    let run = hook("codex", fixture("codex-bash.json"), toCompanion());
    let entry = await question;
    expect(entry.request.data).toMatchObject({ agent: "Codex", project: "/home/ada/src/shop", tool: "Bash", action: { kind: "shell", command: "rm -f /tmp/example" } });
    companion.inbox.answer(entry.request.id, { ok: true });
    expect(await run.done).toMatchObject({ code: 0, stdout: ALLOW });

    question = nextQuestion(companion, (e) => fromHook("Codex")(e) && e.request.prompt.includes("2 files"));
    run = hook("codex", fixture("codex-apply-patch.json"), toCompanion());
    entry = await question;
    companion.inbox.answer(entry.request.id, { ok: false, reason: "declined" });
    expect(await run.done).toMatchObject({ code: 0, stdout: deny("The person denied this in Toolnexus Companion.") });
  });
});

/**
 * A stand-in for the companion that answers each POST as a test scripts it: the replies a real
 * companion gives only in states hard to reach on purpose (flood cap, a decline carrying data, a
 * broken or foreign reply, a wait that never ends). It holds the token "t", so it proves itself
 * like the companion (test/integration/local-trust/squatter.test.ts covers one that cannot).
 */
async function standIn(reply: (res: import("node:http").ServerResponse, request: { id: string }) => void): Promise<{ server: Server; url: string; bodies: unknown[] }> {
  const bodies: unknown[] = [];
  const proof = proofRoute(() => "t");
  const server = createServer((req, res) => {
    if (req.url?.startsWith(PROOF_PATH)) return void proof.handle(req, res, { credential: "public" });
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const body = JSON.parse(Buffer.concat(chunks).toString("utf8"));
      bodies.push(body);
      reply(res, body);
    });
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  return { server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, bodies };
}

describe("hook against a stand-in companion", () => {
  const cases: Array<[string, (res: import("node:http").ServerResponse, request: { id: string }) => void, string]> = [
    ["a decline carrying the person's message", (res, r) => res.end(`\n\n${JSON.stringify({ id: r.id, ok: false, reason: "declined", data: { message: "Not on main." } })}`), deny("Not on main.")],
    ["429 (flood cap)", (res) => res.writeHead(429, { "content-type": "application/json" }).end('{"error":{"status":429,"message":"too many"}}'), ""],
    ["a reply that is not JSON", (res) => res.end("<html>"), ""],
    ["an allow for another question", (res) => res.end('{"id":"someone-else","ok":true}'), ""],
    ["an expiry", (res, r) => res.end(JSON.stringify({ id: r.id, ok: false, reason: "expired" })), ""],
    ["a connection cut mid-wait", (res) => { res.writeHead(200); res.write("\n"); setTimeout(() => res.destroy(), 100); }, ""],
  ];
  for (const [name, reply, stdout] of cases) {
    it(`${name} → ${stdout ? "deny" : "no verdict"}`, async () => {
      const fake = await standIn(reply);
      try {
        const result = await hook("claude-code", fixture("claude-code-bash.json"), { TOOLNEXUS_COMPANION_URL: fake.url, TOOLNEXUS_COMPANION_TOKEN: "t" }).done;
        expect(result).toMatchObject({ code: 0, stdout });
        expect(fake.bodies).toHaveLength(1);
      } finally {
        fake.server.closeAllConnections();
        fake.server.close();
      }
    });
  }

  it("a companion that never answers cannot hold the hook past its deadline", async () => {
    const fake = await standIn((res) => {
      res.writeHead(200);
      res.write("\n");
    });
    try {
      const result = await hook("codex", fixture("codex-bash.json"), { TOOLNEXUS_COMPANION_URL: fake.url, TOOLNEXUS_COMPANION_TOKEN: "t", TOOLNEXUS_HOOK_TIMEOUT: "7" }).done;
      expect(result).toMatchObject({ code: 0, stdout: "" });
      expect(fake.bodies).toHaveLength(1);
      expect(result.ms).toBeLessThan(7000 + EXIT_MS);
    } finally {
      fake.server.closeAllConnections();
      fake.server.close();
    }
  });
});
