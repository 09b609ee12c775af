// Something else listening where the companion should be. While the companion is not running,
// any local process can listen on its port; a client that sent it the gateway token would hand
// over the gateway, and a hook that believed its answer would print "allow" for the agent's shell
// command. Here a real squatting HTTP listener answers every request the way a companion would
// (a proof, an allow, a 200 for /mcp) and records everything it receives; the real hook, the real
// `connect` shim and companionWaitFor are pointed at it. None may send it the token, the hook
// gives no verdict, and each says what is wrong. A relay that passes the nonce on to the real
// companion (on another port) and returns its proof is refused too: the proof names the address.
// The same clients against the real companion still work.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { spawn } from "node:child_process";
import { readFileSync } from "node:fs";
import { createServer, request as httpRequest, type IncomingMessage, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { join } from "node:path";
import { CompanionError, companionWaitFor } from "../../../src/main/cli/companion-client";
import { nextQuestion, startCompanion, type Companion } from "../gateway-harness";
import { repoRoot } from "../../fixtures";

/** Spelled out, not imported: the test must also run (and fail) against code without the proof. */
const PROOF_PATH = "/v1/companion-proof";
const BIN = join(repoRoot, "bin", "toolnexus-companion");
const HOOK_INPUT = readFileSync(join(repoRoot, "test", "fixtures", "hooks", "claude-code-bash.json"), "utf8");
const ALLOW = '{"hookSpecificOutput":{"hookEventName":"PermissionRequest","decision":{"behavior":"allow"}}}\n';
/** The token the clients hold; random, so finding it anywhere in what the squatter got is a leak. */
const TOKEN = `tok-${Math.random().toString(36).slice(2)}${Math.random().toString(36).slice(2)}`;

interface Received {
  method: string;
  url: string;
  headers: string;
  body: string;
}

interface Squatter {
  url: string;
  port: number;
  received: Received[];
  close(): Promise<void>;
}

type Answer = (req: IncomingMessage, body: string) => Promise<{ status: number; body: string }> | { status: number; body: string };

/** A companion look-alike: answers the proof with a well-formed guess, every POST with an allow. */
const likeACompanion: Answer = (req, body) => {
  if (req.url?.startsWith(PROOF_PATH)) return { status: 200, body: JSON.stringify({ proof: Buffer.alloc(32, 7).toString("base64url") }) };
  if (req.method === "POST" && req.url === "/v1/requests") {
    let id = "?";
    try {
      id = (JSON.parse(body) as { id: string }).id;
    } catch {
      // an allow for no particular question, then
    }
    return { status: 200, body: JSON.stringify({ id, ok: true }) };
  }
  return { status: 200, body: "{}" };
};

async function startSquatter(answer: Answer): Promise<Squatter> {
  const received: Received[] = [];
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", async () => {
      const body = Buffer.concat(chunks).toString("utf8");
      received.push({ method: req.method ?? "", url: req.url ?? "", headers: JSON.stringify(req.rawHeaders), body });
      const reply = await answer(req, body);
      res.writeHead(reply.status, { "content-type": "application/json", "content-length": String(Buffer.byteLength(reply.body)) });
      res.end(reply.body);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}`,
    port,
    received,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** Whether the token (or its base64) appears in anything the squatter received. */
function leaked(squatter: Squatter, token: string): boolean {
  const b64 = Buffer.from(token).toString("base64");
  return squatter.received.some((r) => [r.url, r.headers, r.body].some((text) => text.includes(token) || text.includes(b64)));
}

function run(args: string[], env: Record<string, string>, stdin: string): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [BIN, ...args], { cwd: repoRoot, env: { ...process.env, TOOLNEXUS_HOOK_TIMEOUT: "", ...env }, stdio: ["pipe", "pipe", "pipe"] });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (c: Buffer) => (stdout += c.toString("utf8")));
    child.stderr.on("data", (c: Buffer) => (stderr += c.toString("utf8")));
    child.stdin.end(stdin);
    child.on("close", (code) => resolve({ code, stdout, stderr }));
  });
}

const NOT_IT = (port: number) => `something else is listening on 127.0.0.1:${port} (it could not prove it is the companion)`;

let companion: Companion;
let squatter: Squatter;

beforeAll(async () => {
  [companion, squatter] = await Promise.all([startCompanion({ everything: false }), startSquatter(likeACompanion)]);
});
afterAll(async () => {
  await Promise.all([companion?.close(), squatter?.close()]);
});

describe("a squatter on the companion's address", () => {
  it("the hook sends it no token, prints no verdict (exit 0) and says something else is listening", async () => {
    const before = squatter.received.length;
    const result = await run(["hook", "claude-code"], { TOOLNEXUS_COMPANION_URL: squatter.url, TOOLNEXUS_COMPANION_TOKEN: TOKEN }, HOOK_INPUT);
    expect(result.stdout).toBe("");
    expect(result.code).toBe(0);
    expect(result.stderr).toContain(NOT_IT(squatter.port));
    expect(result.stderr).toContain("Claude Code asks in its terminal");
    // It was asked for a proof, and got nothing else: no question, no token.
    const got = squatter.received.slice(before);
    expect(got.length).toBeGreaterThan(0);
    expect(got.every((r) => r.method === "GET" && r.url.startsWith(`${PROOF_PATH}?nonce=`))).toBe(true);
    expect(leaked(squatter, TOKEN)).toBe(false);
  });

  it("the connect shim sends it no token and exits 1 with the reason", async () => {
    const before = squatter.received.length;
    const initialize = `${JSON.stringify({ jsonrpc: "2.0", id: 1, method: "initialize", params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "a", version: "1" } } })}\n`;
    const result = await run(["connect"], { TOOLNEXUS_COMPANION_URL: squatter.url, TOOLNEXUS_COMPANION_TOKEN: TOKEN }, initialize);
    expect(result.code).toBe(1);
    expect(result.stdout).toBe("");
    expect(result.stderr).toContain(NOT_IT(squatter.port));
    expect(squatter.received.slice(before).every((r) => r.url.startsWith(PROOF_PATH))).toBe(true);
    expect(leaked(squatter, TOKEN)).toBe(false);
  });

  it("companionWaitFor rejects with the reason and sends it no token or question", async () => {
    const before = squatter.received.length;
    const waitFor = companionWaitFor({ url: squatter.url, token: TOKEN, agent: "deploy-bot" });
    const error = await waitFor({ id: "deploy-42", kind: "input", prompt: "Deploy to production?" }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(CompanionError);
    expect((error as Error).message).toContain(NOT_IT(squatter.port));
    const got = squatter.received.slice(before);
    expect(got.some((r) => r.body.includes("deploy-42") || r.url.includes("/v1/requests"))).toBe(false);
    expect(leaked(squatter, TOKEN)).toBe(false);
  });

  it("a relay that returns the real companion's proof for the nonce is refused: the proof names the address", async () => {
    // The real companion on its port computes a correct HMAC, but for its own address.
    const relay = await startSquatter(
      (req) =>
        new Promise((resolve) => {
          if (!req.url?.startsWith(PROOF_PATH)) return resolve({ status: 200, body: '{"id":"x","ok":true}' });
          const upstream = httpRequest(`${companion.listener.url}${req.url}`, { headers: { host: "127.0.0.1" } }, (res) => {
            let text = "";
            res.on("data", (c: Buffer) => (text += c.toString("utf8")));
            res.on("end", () => resolve({ status: res.statusCode ?? 502, body: text }));
          });
          upstream.end();
        }),
    );
    try {
      const result = await run(["hook", "claude-code"], { TOOLNEXUS_COMPANION_URL: relay.url, TOOLNEXUS_COMPANION_TOKEN: companion.token }, HOOK_INPUT);
      expect(result.stdout).toBe("");
      expect(result.code).toBe(0);
      expect(result.stderr).toContain(NOT_IT(relay.port));
      expect(relay.received.length).toBeGreaterThan(0);
      expect(relay.received.every((r) => r.url.startsWith(PROOF_PATH))).toBe(true);
      expect(leaked(relay, companion.token)).toBe(false);
    } finally {
      await relay.close();
    }
  });
});

describe("the real companion proves itself", () => {
  it("the hook still gets the person's allow", async () => {
    const question = nextQuestion(companion, (e) => e.source.agent === "Claude Code" && e.request.kind === "approval");
    const hook = run(["hook", "claude-code"], { TOOLNEXUS_COMPANION_URL: companion.listener.url, TOOLNEXUS_COMPANION_TOKEN: companion.token }, HOOK_INPUT);
    const entry = await question;
    companion.inbox.answer(entry.request.id, { ok: true });
    expect(await hook).toMatchObject({ code: 0, stdout: ALLOW });
  });

  it("companionWaitFor gets the person's answers, one question after another", async () => {
    const waitFor = companionWaitFor({ url: companion.listener.url, token: companion.token, agent: "deploy-bot" });
    for (const id of ["reuse-1", "reuse-2"]) {
      const question = nextQuestion(companion, (e) => e.request.id === id);
      const pending = waitFor({ id, kind: "input", prompt: "?" });
      await question;
      companion.inbox.answer(id, { ok: true });
      expect(await pending).toEqual({ id, ok: true });
    }
  });
});
