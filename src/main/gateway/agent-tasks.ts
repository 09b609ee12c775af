// The gateway's own tasks: an agent that declared tasks and asked for one on tools/call gets a
// task of the gateway's (id `gwt-…`) while the call runs in the background through
// McpTool.execute, which follows the server's own task, if any, inside the companion: the
// server's task id never reaches the agent. One store for the whole gateway, so the caps hold
// per session and in all; a task belongs to the session that created it and is invisible to every
// other (task ids are bearer-like: knowing one must not be enough to read or cancel it).
//
// The wire each era speaks is agent-tasks-wire.ts's; this file knows statuses, results, the
// requests a task waits on the agent for, caps and retention.
import { randomBytes } from "node:crypto";
import type { CallToolResult } from "@modelcontextprotocol/server";
import type { ServerTaskStatus } from "../mcp/tasks/wire";
import { AGENT_TASK_MAX_TTL_MS, AGENT_TASK_TTL_MS, MAX_AGENT_TASKS_PER_SESSION, MAX_AGENT_TASKS_TOTAL } from "../../shared/limits";

/** A request of the server's the agent answers, waiting on the task (elicitation, sampling, roots). */
export interface AgentInput {
  /** Unique over the task's life (a 2026-07-28 inputRequests key). */
  key: string;
  method: string;
  params: Record<string, unknown>;
  /** Sent to the agent and not answered yet (2025-11-25: on an open tasks/result). */
  delivered: boolean;
  answer(result: Record<string, unknown>): void;
  fail(error: unknown): void;
}

/** What the running call may do with its task. */
export interface TaskControl {
  /** The task's id (`gwt-…`). */
  id: string;
  signal: AbortSignal;
  /** A progress message becomes the task's statusMessage. */
  status(message: string): void;
  /** Waits on the agent's answer to one request; the task is input_required meanwhile. */
  ask(request: { method: string; params: Record<string, unknown> }, signal: AbortSignal): Promise<Record<string, unknown>>;
}

export interface AgentTask {
  readonly id: string;
  readonly owner: string;
  status: ServerTaskStatus;
  statusMessage?: string;
  readonly createdAt: number;
  updatedAt: number;
  endedAt?: number;
  /** ms the task is kept once it ended. */
  readonly ttlMs: number;
  /** The call's result, once it ended completed or failed. */
  result?: CallToolResult;
  /** Requests waiting on the agent, by key. */
  readonly inputs: Map<string, AgentInput>;
}

export interface AgentTasksOptions {
  perSession?: number;
  total?: number;
  /** Default ttl of an ended task, and the most an agent may ask for. */
  ttlMs?: number;
  maxTtlMs?: number;
  /** The poll interval agents are told, ms. */
  pollIntervalMs?: number;
}

interface Entry {
  task: AgentTask;
  abort: AbortController;
  /** Woken on every change of the task (status, a new input). */
  waiters: Set<() => void>;
  nextInput: number;
}

const POLL_INTERVAL_MS = 1000;
/** The statusMessage an agent reads is a line, not a document. */
const MAX_STATUS_MESSAGE = 1000;

function isEnded(status: ServerTaskStatus): boolean {
  return status === "completed" || status === "failed" || status === "cancelled";
}

function firstText(result: CallToolResult): string | undefined {
  const block = (result.content ?? []).find((c) => c.type === "text") as { text?: string } | undefined;
  return block?.text;
}

export class AgentTasks {
  readonly perSession: number;
  readonly total: number;
  readonly ttlMs: number;
  readonly maxTtlMs: number;
  readonly pollIntervalMs: number;
  private readonly entries = new Map<string, Entry>();
  private readonly sweeper: NodeJS.Timeout;

  constructor(options: AgentTasksOptions = {}) {
    this.perSession = options.perSession ?? MAX_AGENT_TASKS_PER_SESSION;
    this.total = options.total ?? MAX_AGENT_TASKS_TOTAL;
    this.maxTtlMs = options.maxTtlMs ?? AGENT_TASK_MAX_TTL_MS;
    this.ttlMs = Math.min(options.ttlMs ?? AGENT_TASK_TTL_MS, this.maxTtlMs);
    this.pollIntervalMs = options.pollIntervalMs ?? POLL_INTERVAL_MS;
    this.sweeper = setInterval(() => this.sweep(), Math.max(10, Math.min(this.ttlMs / 2, 30_000)));
    this.sweeper.unref();
  }

  /**
   * A new task of `owner` running `run` in the background, or the refusal naming the cap. `ttlMs`
   * is the agent's own ask (held between 0 and maxTtlMs).
   */
  start(owner: string, run: (control: TaskControl) => Promise<CallToolResult>, ttlMs?: number): AgentTask | string {
    const refusal = this.makeRoom(owner);
    if (refusal) return refusal;
    const now = Date.now();
    const ttl = typeof ttlMs === "number" && Number.isFinite(ttlMs) && ttlMs >= 0 ? Math.min(Math.floor(ttlMs), this.maxTtlMs) : this.ttlMs;
    const task: AgentTask = { id: `gwt-${randomBytes(18).toString("base64url")}`, owner, status: "working", createdAt: now, updatedAt: now, ttlMs: ttl, inputs: new Map() };
    const entry: Entry = { task, abort: new AbortController(), waiters: new Set(), nextInput: 1 };
    this.entries.set(task.id, entry);
    const control: TaskControl = {
      id: task.id,
      signal: entry.abort.signal,
      status: (message) => {
        if (isEnded(task.status)) return;
        task.statusMessage = message.slice(0, MAX_STATUS_MESSAGE);
        this.changed(entry);
      },
      ask: (request, signal) => this.ask(entry, request, signal),
    };
    void Promise.resolve()
      .then(() => run(control))
      .then(
        // A tool's own error (isError) is its result, as on a plain call: the task completed with it
        // (the 2026-07-28 extension says so outright; the SDK v1 client drops a failed task's result).
        (result) => this.end(entry, "completed", result),
        (error: unknown) => this.end(entry, entry.abort.signal.aborted ? "cancelled" : "failed", undefined, error),
      );
    return task;
  }

  /** The task `id` if `owner` created it and it is still kept; every other case looks the same. */
  find(owner: string, id: unknown): AgentTask | undefined {
    if (typeof id !== "string") return undefined;
    const entry = this.entries.get(id);
    if (!entry || entry.task.owner !== owner) return undefined;
    if (this.expired(entry.task, Date.now())) {
      this.entries.delete(id);
      return undefined;
    }
    return entry.task;
  }

  /** `owner`'s tasks, newest first. */
  list(owner: string): AgentTask[] {
    this.sweep();
    return [...this.entries.values()].filter((e) => e.task.owner === owner).map((e) => e.task).reverse();
  }

  /**
   * Cancels a running task: its call's signal is aborted (the companion cancels the server's task),
   * and the task is cancelled at once. False when the task has already ended.
   */
  cancel(task: AgentTask, reason = "the agent cancelled the task"): boolean {
    const entry = this.entries.get(task.id);
    if (!entry || isEnded(task.status)) return false;
    this.end(entry, "cancelled", undefined, new Error(reason));
    entry.abort.abort(new Error(reason));
    return true;
  }

  /** Resolves at the task's next change (status, statusMessage, a new request for the agent), or when `signal` aborts. */
  nextChange(task: AgentTask, signal: AbortSignal): Promise<void> {
    const entry = this.entries.get(task.id);
    if (!entry || isEnded(task.status) || signal.aborted) return Promise.resolve();
    return new Promise((resolve) => {
      const done = () => {
        entry.waiters.delete(done);
        signal.removeEventListener("abort", done);
        resolve();
      };
      entry.waiters.add(done);
      signal.addEventListener("abort", done, { once: true });
    });
  }

  /** The session ended: its running tasks are cancelled and all of its tasks dropped (nobody can reach them). */
  dropOwner(owner: string): void {
    for (const [id, entry] of this.entries) {
      if (entry.task.owner !== owner) continue;
      this.cancel(entry.task, "the agent's session ended");
      this.entries.delete(id);
    }
  }

  close(): void {
    clearInterval(this.sweeper);
    for (const entry of this.entries.values()) this.cancel(entry.task, "the gateway closed");
    this.entries.clear();
  }

  private ask(entry: Entry, request: { method: string; params: Record<string, unknown> }, signal: AbortSignal): Promise<Record<string, unknown>> {
    const { task } = entry;
    if (isEnded(task.status)) return Promise.reject(new Error("the task has ended"));
    return new Promise((resolve, reject) => {
      const key = `input-${entry.nextInput++}`;
      const settle = () => {
        signal.removeEventListener("abort", onAbort);
        task.inputs.delete(key);
        if (task.inputs.size === 0 && task.status === "input_required") task.status = "working";
        this.changed(entry);
      };
      const onAbort = () => {
        settle();
        reject(signal.reason);
      };
      const input: AgentInput = {
        key,
        method: request.method,
        params: request.params,
        delivered: false,
        answer: (result) => {
          settle();
          resolve(result);
        },
        fail: (error) => {
          settle();
          reject(error);
        },
      };
      if (signal.aborted) return reject(signal.reason);
      signal.addEventListener("abort", onAbort, { once: true });
      task.inputs.set(key, input);
      task.status = "input_required";
      this.changed(entry);
    });
  }

  private end(entry: Entry, status: ServerTaskStatus, result?: CallToolResult, error?: unknown): void {
    const { task } = entry;
    if (isEnded(task.status)) return;
    task.status = status;
    task.result = result;
    const message = result ? (result.isError ? firstText(result) : undefined) : String((error as Error | undefined)?.message ?? error);
    if (message) task.statusMessage = message.slice(0, MAX_STATUS_MESSAGE);
    task.endedAt = Date.now();
    for (const input of [...task.inputs.values()]) input.fail(new Error(`the task was ${status}`));
    this.changed(entry);
  }

  private changed(entry: Entry): void {
    entry.task.updatedAt = Date.now();
    for (const wake of [...entry.waiters]) wake();
  }

  private expired(task: AgentTask, now: number): boolean {
    return task.endedAt !== undefined && now - task.endedAt > task.ttlMs;
  }

  private sweep(): void {
    const now = Date.now();
    for (const [id, entry] of this.entries) if (this.expired(entry.task, now)) this.entries.delete(id);
  }

  /** Room for one more task of `owner`: the oldest ended one (of the session, then of any) is dropped at a cap. */
  private makeRoom(owner: string): string | undefined {
    this.sweep();
    const mine = [...this.entries.values()].filter((e) => e.task.owner === owner);
    if (mine.length >= this.perSession && !this.dropOldestEnded(mine)) {
      return `Too many tasks: this session has ${this.perSession} running, the cap (MAX_AGENT_TASKS_PER_SESSION). Wait for one to end or cancel one (tasks/cancel).`;
    }
    if (this.entries.size >= this.total && !this.dropOldestEnded([...this.entries.values()])) {
      return `Too many tasks: the gateway has ${this.total} running, the cap (MAX_AGENT_TASKS_TOTAL). Retry later.`;
    }
    return undefined;
  }

  private dropOldestEnded(among: Entry[]): boolean {
    let oldest: Entry | undefined;
    for (const e of among) if (e.task.endedAt !== undefined && (!oldest || e.task.endedAt < oldest.task.endedAt!)) oldest = e;
    if (oldest) this.entries.delete(oldest.task.id);
    return oldest !== undefined;
  }
}
