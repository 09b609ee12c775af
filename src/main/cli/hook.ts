// `toolnexus-companion hook <agent>`: an agent's PermissionRequest hook. Reads the agent's hook
// input on stdin, asks the person through the companion (one Request of kind "approval", hooks/approval-request.ts),
// and writes the decision in the agent's own output schema. Whatever goes wrong — companion not
// running, something else on its port that cannot prove it is the companion (it never gets the
// token, and its answers are never read: gateway/proven-connection.ts), flood limit, question cancelled or expired, our deadline reached — the
// hook prints nothing and exits 0: no verdict, and the agent asks in its own terminal. It never
// exits 2 (Claude Code reads that as "deny") and never allows anything by itself.
import { MAX_HOOK_INPUT_BYTES } from "../../shared/limits";
import { answerToVerdict, approvalRequest, HOOK_AGENTS, hookAgent, type HookAgent, type Verdict } from "../hooks";
import { companionWaitFor } from "./companion-client";
import { terminalText } from "../base/terminal-text";
import { complainer } from "./print";
import { companionUrl, resolveToken } from "./resolve-token";

/** Under the shortest hook timeout the agents have documented (Claude Code's former 60 s), with
 * room for this process to start and for the agent to read our answer. */
export const DEFAULT_HOOK_TIMEOUT_SECONDS = 55;
const MAX_HOOK_TIMEOUT_SECONDS = 3600;
/** A process that somehow lingers after answering (a keychain or socket handle) is ended anyway. */
const EXIT_GRACE_MS = 1000;

export const HOOK_USAGE = `Usage: toolnexus-companion hook <${HOOK_AGENTS.map((a) => a.id).join("|")}> [--timeout SECONDS]

Install as the agent's PermissionRequest hook. Reads the hook input on stdin, asks in the
companion, prints the decision. Without a decision (companion down, a listener that cannot
prove it is the companion, question cancelled or expired, deadline reached) it prints nothing,
so the agent asks in its own terminal.
Deadline: --timeout, else TOOLNEXUS_HOOK_TIMEOUT (seconds), else ${DEFAULT_HOOK_TIMEOUT_SECONDS}. Keep it below the
agent's own hook timeout.
`;

type Args = { agent: HookAgent; timeoutMs: number } | { error: string };

function seconds(text: string | undefined, from: string): number | string {
  const value = Number(text);
  if (text === undefined || text.trim() === "" || !Number.isFinite(value) || value <= 0 || value > MAX_HOOK_TIMEOUT_SECONDS) {
    return `${from} must be a number of seconds between 0 and ${MAX_HOOK_TIMEOUT_SECONDS}, not ${JSON.stringify(text)}`;
  }
  return value;
}

export function parseHookArgs(args: string[], env: NodeJS.ProcessEnv = process.env): Args {
  const [id, ...rest] = args;
  const agent = id === undefined ? undefined : hookAgent(id);
  if (!agent) return { error: id === undefined ? "which agent?" : `unknown agent "${id}"` };
  const fromEnv = env.TOOLNEXUS_HOOK_TIMEOUT;
  let timeout: number | string = fromEnv === undefined || fromEnv === "" ? DEFAULT_HOOK_TIMEOUT_SECONDS : seconds(fromEnv, "TOOLNEXUS_HOOK_TIMEOUT");
  for (let i = 0; i < rest.length; i++) {
    const arg = rest[i];
    if (arg === "--timeout") timeout = seconds(rest[++i], "--timeout");
    else if (arg.startsWith("--timeout=")) timeout = seconds(arg.slice("--timeout=".length), "--timeout");
    else return { error: `unknown argument "${arg}"` };
  }
  if (typeof timeout === "string") return { error: timeout };
  return { agent, timeoutMs: Math.round(timeout * 1000) };
}

function readAll(stream: NodeJS.ReadableStream, limit: number): Promise<{ text: string } | { why: string }> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let size = 0;
    stream.on("data", (chunk: Buffer) => {
      size += chunk.length;
      if (size > limit) {
        (stream as NodeJS.ReadStream).destroy?.();
        resolve({ why: `the hook input is larger than ${limit} bytes` });
        return;
      }
      chunks.push(chunk);
    });
    stream.on("end", () => resolve({ text: Buffer.concat(chunks).toString("utf8") }));
    stream.on("error", (error: Error) => resolve({ why: `reading the hook input failed: ${error.message}` }));
  });
}

/** `promise`, unless the deadline passes first. */
function beforeDeadline<T>(promise: Promise<T>, signal: AbortSignal): Promise<T | "deadline"> {
  if (signal.aborted) return Promise.resolve("deadline");
  return new Promise((resolve, reject) => {
    const onAbort = () => resolve("deadline");
    signal.addEventListener("abort", onAbort, { once: true });
    promise.then(
      (value) => {
        signal.removeEventListener("abort", onAbort);
        resolve(value);
      },
      (error) => {
        signal.removeEventListener("abort", onAbort);
        reject(error);
      },
    );
  });
}

const none = (why: string): Verdict => ({ kind: "none", why });
const DEADLINE = none("the hook's deadline passed before the person answered");

async function decide(agent: HookAgent, deadlineAt: number, signal: AbortSignal): Promise<Verdict> {
  const input = await beforeDeadline(readAll(process.stdin, MAX_HOOK_INPUT_BYTES), signal);
  if (input === "deadline") return DEADLINE;
  if ("why" in input) return none(input.why);
  let json: unknown;
  try {
    json = JSON.parse(input.text);
  } catch (error) {
    return none(`the hook input is not JSON (${(error as Error).message})`);
  }
  const read = agent.read(json);
  if (!read.ok) return none(read.reason);

  const resolved = await beforeDeadline(resolveToken(), signal);
  if (resolved === "deadline") return DEADLINE;
  if (!resolved.token) return none(`no gateway token: ${resolved.why}`);

  // The Inbox expires the question at our deadline too, so it leaves the person's screen even if
  // our closed connection were somehow missed.
  const request = approvalRequest(agent.label, read.call, { expiresAt: new Date(deadlineAt) });
  try {
    // Its own credential: the question is the hook's, and no other agent can see or withdraw it.
    const waitFor = companionWaitFor({ url: companionUrl(), token: resolved.token, agent: agent.label, asAgent: agent.id });
    // Aborting at the deadline closes the connection, which withdraws the question.
    const answer = await waitFor(request, { signal });
    return answerToVerdict(answer, request.id);
  } catch (error) {
    return signal.aborted ? DEADLINE : none((error as Error).message);
  }
}

function write(stream: NodeJS.WriteStream, text: string): Promise<void> {
  return new Promise((resolve) => stream.write(text, () => resolve()));
}

export async function runHook(args: string[]): Promise<number> {
  const parsed = parseHookArgs(args);
  if ("error" in parsed) {
    // 1, not 2: for Claude Code a 2 from a PermissionRequest hook means "deny".
    complainer("hook")(`${parsed.error}\n\n${HOOK_USAGE}`);
    return 1;
  }
  const { agent, timeoutMs } = parsed;
  // The agent's clock started when it spawned us, and starting node takes a while: count from then.
  const spawnedAt = Date.now() - Math.round(process.uptime() * 1000);
  const deadlineAt = spawnedAt + timeoutMs;
  const deadline = new AbortController();
  const timer = setTimeout(() => deadline.abort(new Error("deadline")), Math.max(0, deadlineAt - Date.now()));
  // The agent ending us early (its own timeout, an interrupt) withdraws the question too.
  const stop = () => deadline.abort(new Error("stopped"));
  process.once("SIGTERM", stop);
  process.once("SIGINT", stop);
  let verdict: Verdict;
  try {
    verdict = await decide(agent, deadlineAt, deadline.signal);
  } catch (error) {
    verdict = none(`unexpected error: ${(error as Error).message}`);
  } finally {
    clearTimeout(timer);
    process.removeListener("SIGTERM", stop);
    process.removeListener("SIGINT", stop);
    process.stdin.destroy();
  }
  if (verdict.kind === "allow") await write(process.stdout, `${agent.allow()}\n`);
  else if (verdict.kind === "deny") await write(process.stdout, `${agent.deny(verdict.message)}\n`);
  else await write(process.stderr, terminalText(`toolnexus-companion hook: no verdict, ${agent.label} asks in its terminal: ${verdict.why}.`) + "\n");
  setTimeout(() => process.exit(), EXIT_GRACE_MS).unref();
  return 0;
}
