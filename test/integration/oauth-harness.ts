// Shared by the OAuth integration tests: the fixture oauth-server.mjs (a protected MCP server and
// its authorization server) as a real process, and the companion's pieces (a callback listener,
// createAuth, an Inbox, loadMcp) with a scripted person who follows the authorization URL.
import { spawn, type ChildProcess } from "node:child_process";
import { afterEach } from "vitest";
import { CallbackHub, createAuth, startCallbackListener, type CallbackListener } from "../../src/main/auth";
import { Inbox, inboxWaitFor } from "../../src/main/inbox";
import { loadMcp } from "../../src/main/mcp/source";
import type { McpSource } from "../../src/main/mcp/types";
import type { SecretStore } from "../../src/main/secrets/types";
import type { PendingEntry, ServerStatus } from "../../src/shared/types";
import { fixture } from "../fixtures";

export interface Running {
  url: string;
  origin: string;
  child: ChildProcess;
  stats(): Promise<Record<string, number>>;
}

export const cleanups: Array<() => Promise<unknown> | unknown> = [];
afterEach(async () => {
  while (cleanups.length) await cleanups.pop()!();
});

export async function startOAuthServer(args: string[] = []): Promise<Running> {
  const child = spawn(process.execPath, [fixture("oauth-server"), ...args], { detached: true, stdio: ["ignore", "pipe", "pipe"] });
  cleanups.push(() => {
    try {
      process.kill(-child.pid!, "SIGKILL");
    } catch {
      // Gone already.
    }
  });
  const url = await new Promise<string>((resolve, reject) => {
    let out = "";
    const timer = setTimeout(() => reject(new Error("oauth-server printed no LISTENING line")), 10_000);
    child.stdout!.on("data", (chunk) => {
      out += String(chunk);
      const match = /^LISTENING (\S+)$/m.exec(out);
      if (match) {
        clearTimeout(timer);
        resolve(match[1]);
      }
    });
  });
  const origin = new URL(url).origin;
  return { url, origin, child, stats: async () => (await fetch(`${origin}/_stats`)).json() as Promise<Record<string, number>> };
}

/** The companion's pieces for one run: a callback listener, createAuth, an Inbox and loadMcp. */
export async function companion(
  store: SecretStore,
  serverUrl: string,
  person: (entry: PendingEntry, inbox: Inbox) => void,
  entry: Record<string, unknown> = {},
) {
  const hub = new CallbackHub();
  const callback: CallbackListener = await startCallbackListener(hub);
  const auth = createAuth({ secrets: store, callbackUrl: callback.url, hub });
  const inbox = new Inbox();
  const questions: PendingEntry[] = [];
  inbox.on((event) => {
    if (event.type !== "added") return;
    questions.push(event.entry);
    queueMicrotask(() => person(event.entry, inbox));
  });
  const logs: string[] = [];
  const source = await loadMcp({ mcpServers: { secure: { url: serverUrl, ...entry } } }, { waitFor: inboxWaitFor(inbox), auth, log: (l) => logs.push(l) });
  cleanups.push(async () => {
    inbox.close();
    await source.close();
    await callback.close();
  });
  return { source, auth, inbox, questions, logs, callback };
}

/** The person: opens the link (accepts), their browser follows the redirect to the callback; forms get emea. */
export function signingPerson(pages: Array<{ status: number; body: string }>) {
  return (entry: PendingEntry, inbox: Inbox) => {
    const { request } = entry;
    if (request.kind === "authorization") {
      inbox.answer(request.id, { ok: true });
      void (async () => {
        const authorize = await fetch(request.url!, { redirect: "manual" });
        const landed = await fetch(authorize.headers.get("location")!);
        pages.push({ status: landed.status, body: await landed.text() });
      })().catch((error) => pages.push({ status: 0, body: String(error) }));
    } else {
      inbox.answer(request.id, { ok: true, data: { region: "emea" } });
    }
  };
}

export function statusOf(source: McpSource, name = "secure"): ServerStatus | undefined {
  return source.servers().find((s) => s.name === name);
}

export function until(source: McpSource, test: (s: ServerStatus) => boolean, ms = 15_000): Promise<ServerStatus> {
  return new Promise((resolve, reject) => {
    const now = statusOf(source);
    if (now && test(now)) return resolve(now);
    const timer = setTimeout(() => {
      stop();
      reject(new Error(`status never matched; last: ${JSON.stringify(statusOf(source))}`));
    }, ms);
    const stop = source.on((event) => {
      if (event.type === "status" && test(event.status)) {
        clearTimeout(timer);
        stop();
        resolve(event.status);
      }
    });
  });
}

