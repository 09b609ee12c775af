// keytar, called in a helper process (keychain-child.ts says why) and shaped like keytar itself,
// so createKeytarStore and every caller stay as they are. Calls go one at a time; each has a
// deadline, after which the helper is killed and the call fails with a clear reason. A helper
// that crashes fails only the call it was running; the next call starts a new one. An idle
// helper is let go, so it costs nothing between the keychain reads of start-up and sign-in.
import { spawn } from "node:child_process";
import { createRequire } from "node:module";
import { LineSplitter } from "../base/line-splitter";
import type { KeytarLike } from "./keytar-store";
import { KEYCHAIN_HELPER_NAME, nodeHelperSource, type KeychainCall, type KeychainReply } from "./keychain-child";

/** One running helper, however it was started (a node child, or Electron's utility process). */
export interface HelperChannel {
  send(call: KeychainCall): void;
  onReply(handler: (reply: KeychainReply) => void): void;
  /** Once, when the helper is gone; `why` names the exit code or signal. */
  onExit(handler: (why: string) => void): void;
  /** Lets the helper go (it exits by itself); kill() ends it at once. */
  release(): void;
  kill(): void;
  /** Whether the helper may keep the companion's event loop alive (only while a call waits). */
  hold(held: boolean): void;
}

export type HelperLauncher = (keytarPath: string) => HelperChannel;

/** A keychain that answers nothing for this long is stuck (or waiting on a prompt no one sees). */
const KEYCHAIN_CALL_TIMEOUT_MS = 30_000;
/** A helper with nothing to do for this long is let go. */
export const KEYCHAIN_IDLE_MS = 15_000;
/** Calls waiting behind the one running; more than this is a runaway caller. */
const MAX_QUEUED_CALLS = 1000;
/** A reply line longer than this is not keytar's. */
const MAX_REPLY_BYTES = 16 * 1024 * 1024;
/** After a helper was killed for not answering, calls fail at once for this long (it would
 * only stall each of them again). */
const COOLDOWN_MS = 30_000;

/** A helper's end, told once to every listener however many ways it is noticed (exit, error, a bad reply). */
export function exitOnce(): { exit(why: string): void; onExit(handler: (why: string) => void): void } {
  const handlers: ((why: string) => void)[] = [];
  let exited = false;
  return {
    exit(why) {
      if (exited) return;
      exited = true;
      for (const handler of handlers) handler(why);
    },
    onExit: (handler) => void handlers.push(handler),
  };
}

/** The helper as `node -e` (plain Node: npm run serve, the CLI, tests). */
function nodeHelperLauncher(execPath = process.execPath): HelperLauncher {
  return (keytarPath) => {
    const child = spawn(execPath, ["-e", nodeHelperSource(), KEYCHAIN_HELPER_NAME, keytarPath], {
      stdio: ["pipe", "pipe", "ignore"],
      windowsHide: true,
      // Electron's binary runs as Node with this (when its fuse allows it); plain node ignores it.
      env: { ...process.env, ELECTRON_RUN_AS_NODE: "1" },
    });
    const replyHandlers: ((reply: KeychainReply) => void)[] = [];
    const { exit, onExit } = exitOnce();
    child.once("error", (error) => exit(`could not start (${error.message})`));
    child.once("exit", (code, signal) => exit(signal ? `killed by ${signal}` : `exited with code ${code}`));
    child.stdin!.on("error", () => {
      // EPIPE: the helper died; its exit says how.
    });
    const lines = new LineSplitter(MAX_REPLY_BYTES);
    child.stdout!.on("data", (chunk: Buffer) => {
      let complete: string[];
      try {
        complete = lines.push(chunk);
      } catch (error) {
        child.kill("SIGKILL");
        exit((error as Error).message);
        return;
      }
      for (const line of complete) {
        let reply: KeychainReply;
        try {
          reply = JSON.parse(line) as KeychainReply;
        } catch {
          continue;
        }
        for (const handler of replyHandlers) handler(reply);
      }
    });
    const streams = [child, child.stdin, child.stdout] as unknown as { ref?(): void; unref?(): void }[];
    return {
      send: (call) => void child.stdin!.write(`${JSON.stringify(call)}\n`),
      onReply: (handler) => void replyHandlers.push(handler),
      onExit,
      release: () => void child.stdin!.end(),
      kill: () => void child.kill("SIGKILL"),
      hold(held) {
        for (const s of streams) (held ? s?.ref : s?.unref)?.call(s);
      },
    };
  };
}

export interface KeychainProcessOptions {
  /** How to start the helper; nodeHelperLauncher() unless the desktop passes Electron's. */
  launch?: HelperLauncher;
  /** The keytar module the helper loads (tests point it at stand-ins that crash or stall). */
  modulePath?: string;
  callTimeoutMs?: number;
  idleMs?: number;
}

export interface KeychainProcess extends KeytarLike {
  /** Ends the helper now; later calls start a new one. */
  close(): void;
}

interface Queued {
  call: KeychainCall;
  resolve(value: unknown): void;
  reject(error: Error): void;
}

export function keychainProcess(options: KeychainProcessOptions = {}): KeychainProcess {
  const launch = options.launch ?? nodeHelperLauncher();
  const modulePath = options.modulePath ?? createRequire(import.meta.url).resolve("keytar");
  const callTimeoutMs = options.callTimeoutMs ?? KEYCHAIN_CALL_TIMEOUT_MS;
  const idleMs = options.idleMs ?? KEYCHAIN_IDLE_MS;
  let helper: HelperChannel | undefined;
  let running: (Queued & { timer: NodeJS.Timeout }) | undefined;
  let idleTimer: NodeJS.Timeout | undefined;
  let coolUntil = 0;
  let coolReason = "";
  let nextId = 1;
  const queue: Queued[] = [];

  const startHelper = (): HelperChannel => {
    const started = launch(modulePath);
    started.onReply((reply) => {
      if (helper !== started || !running || reply.id !== running.call.id) return;
      const done = running;
      running = undefined;
      clearTimeout(done.timer);
      if (reply.ok) done.resolve(reply.value);
      else done.reject(new Error(reply.error));
      pump();
    });
    started.onExit((why) => {
      if (helper !== started) return;
      helper = undefined;
      const lost = running;
      running = undefined;
      if (lost) {
        clearTimeout(lost.timer);
        lost.reject(new Error(`the keychain helper stopped during ${lost.call.op} (${why}); keytar crashes like this on a locked keyring`));
      }
      pump();
    });
    return started;
  };

  const pump = () => {
    if (running) return;
    const next = queue.shift();
    if (!next) {
      helper?.hold(false);
      clearTimeout(idleTimer);
      idleTimer = setTimeout(() => {
        const idle = helper;
        helper = undefined;
        idle?.release();
      }, idleMs);
      idleTimer.unref();
      return;
    }
    clearTimeout(idleTimer);
    if (Date.now() < coolUntil) {
      next.reject(new Error(coolReason));
      pump();
      return;
    }
    helper ??= startHelper();
    helper.hold(true);
    const timer = setTimeout(() => {
      if (running !== current) return;
      running = undefined;
      coolUntil = Date.now() + COOLDOWN_MS;
      coolReason = `the keychain did not answer within ${callTimeoutMs} ms (is it locked, waiting on a prompt?)`;
      const stuck = helper;
      helper = undefined;
      stuck?.kill();
      next.reject(new Error(coolReason));
      pump();
    }, callTimeoutMs);
    const current = { ...next, timer };
    running = current;
    helper.send(next.call);
  };

  const call = (op: KeychainCall["op"], args: string[]): Promise<unknown> =>
    new Promise((resolve, reject) => {
      if (queue.length >= MAX_QUEUED_CALLS) {
        reject(new Error(`too many keychain calls waiting (${MAX_QUEUED_CALLS})`));
        return;
      }
      queue.push({ call: { id: nextId++, op, args }, resolve, reject });
      pump();
    });

  return {
    getPassword: async (service, account) => ((await call("getPassword", [service, account])) as string | null) ?? null,
    setPassword: async (service, account, password) => void (await call("setPassword", [service, account, password])),
    deletePassword: async (service, account) => Boolean(await call("deletePassword", [service, account])),
    findCredentials: async (service) => {
      const found = await call("findCredentials", [service]);
      return Array.isArray(found) ? (found as { account: string; password: string }[]) : [];
    },
    close() {
      clearTimeout(idleTimer);
      const current = helper;
      helper = undefined;
      current?.kill();
    },
  };
}
