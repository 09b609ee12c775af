// Following one task to its end, whichever generation's wire (wire.ts) it runs on: every change is
// written to the ledger first and then told (SourceEvent "task"); tasks/get is polled at the
// server's suggested interval within POLL_MIN_MS..POLL_MAX_MS; a task waiting on input gets it
// (2026-07-28: each inputRequests key asked once through the caller's bridge, answered with
// tasks/update; 2025-11-25: tasks/result is opened, and the requests the server queued on the
// task arrive on it as ordinary server requests, which the connection routes by their
// relatedTask meta); the end becomes the call's result or its error. Nothing here knows the
// connection: its hooks say how to ask and what counts as liveness.
import { randomUUID } from "node:crypto";
import type { CallToolResult } from "@modelcontextprotocol/client";
import type { TaskGeneration, TaskProgress, TaskRecord, TaskState } from "../../../shared/tasks";
import { errorMessage } from "../../../shared/unknown-value";
import { terminalText } from "../../base/terminal-text";
import { LinkedAbort } from "../../base/linked-abort";
import { ToolCallError } from "../call-paths/call-path";
import { joinText } from "../result";
import type { TaskLedger } from "./ledger";
import type { TaskInputRequest, TaskSnapshot, TaskWire } from "./wire";

/** A server that asks to be polled more often than this is polled this often. */
export const POLL_MIN_MS = 250;
/** A server that asks for longer pauses (or says nothing) is still looked at this often. */
export const POLL_MAX_MS = 15_000;
/** The pause when the server suggests none (the 2025-11-25 servers of the SDK suggest 1 s too). */
export const POLL_DEFAULT_MS = 1_000;
/** A server's statusMessage, and an outcome line, are kept to this many characters. */
export const MAX_TASK_TEXT = 500;
/** With nothing new, lastPolledAt is written to the ledger at most this often (a poll every 250 ms would be a write each). */
const QUIET_WRITE_MS = 10_000;
/** Progress is written to the ledger at most this often (the last step, progress = total, always). */
const PROGRESS_WRITE_MS = 1_000;
/**
 * A server that cannot be reached (a tasks/get failing without a JSON-RPC answer: it is
 * restarting, or the network dropped) is polled on for this long before the follow gives up: a
 * restarted server then says whether it still knows the task.
 */
export const POLL_OUTAGE_MS = 30_000;
/** -32602: tasks/get of a task its server does not know (expired, or the server restarted). */
const UNKNOWN_TASK = -32602;

/** The pause before the next tasks/get: the server's suggestion within the bounds (and under `maxMs`). */
export function pollDelay(suggestedMs: number | undefined, maxMs = POLL_MAX_MS): number {
  const upper = Math.max(POLL_MIN_MS, Math.min(POLL_MAX_MS, maxMs));
  const wanted = typeof suggestedMs === "number" && Number.isFinite(suggestedMs) ? suggestedMs : POLL_DEFAULT_MS;
  return Math.min(upper, Math.max(POLL_MIN_MS, wanted));
}

/** Text from a server on its way into a record: one line, no controls, bounded. */
export function taskText(text: string): string {
  const line = terminalText(text).trim();
  return line.length > MAX_TASK_TEXT ? `${line.slice(0, MAX_TASK_TEXT - 1)}…` : line;
}

/** A record for a task that just started (state as its first snapshot says). */
export function newTaskRecord(fields: { server: string; tool: string; agent?: string; generation: TaskGeneration }, first: TaskSnapshot, now = Date.now()): TaskRecord {
  return {
    id: `tsk-${randomUUID()}`,
    server: fields.server,
    tool: fields.tool,
    ...(fields.agent !== undefined ? { agent: fields.agent } : {}),
    taskId: first.taskId,
    generation: fields.generation,
    state: first.status,
    ...(first.statusMessage ? { statusMessage: taskText(first.statusMessage) } : {}),
    createdAt: now,
    lastPolledAt: now,
  };
}

export interface FollowHooks {
  ledger: TaskLedger;
  /** The record changed (written to the ledger already): SourceEvent "task". */
  emit(record: TaskRecord): void;
  /** 2026-07-28: one of the task's inputRequests, through the bridge; resolves with the response to send. */
  ask(request: TaskInputRequest, signal: AbortSignal): Promise<Record<string, unknown>>;
  /** A tasks/get was answered: the task is alive (the caller's idle timer starts over). */
  alive?(): void;
  log?(line: string): void;
}

export interface FollowOptions {
  /** The caller's signal: when it aborts, the server is told (tasks/cancel) and the record ends as cancelled. */
  signal?: AbortSignal;
  /** Aborted when the connection ends: the follow stops and the record stays live, to be resumed. */
  lifetime?: AbortSignal;
  /** An upper bound of the pause below POLL_MAX_MS (the caller's idle time, halved). */
  maxPollMs?: number;
}

export interface Followed {
  readonly record: TaskRecord;
  /** The task's result (as the server gave it); rejects with a ToolCallError, or with the caller's abort reason. */
  readonly done: Promise<CallToolResult>;
  /** The person cancelled it: tasks/cancel, then the record ends as cancelled. Resolves once the server answered. */
  cancel(): Promise<void>;
  /** The server's progress on the task (notifications/progress with the call's token). */
  progressed(progress: TaskProgress): void;
}

/** The follow stopped without the task ending: the connection went away. The record stays live. */
class Interrupted extends Error {}

/** How a task ended, as the call sees it: its result, or its error. */
type Ending = { result: CallToolResult; state: TaskState } | { error: Error; state: TaskState; outcome: string };

/** Follows `first` (the task a call or a resume got) on `wire` until it ends. */
export function followTask(wire: TaskWire, first: TaskSnapshot | undefined, record: TaskRecord, hooks: FollowHooks, options: FollowOptions = {}): Followed {
  return new Follower(wire, record, hooks, options).start(first);
}

class Follower implements Followed {
  record: TaskRecord;
  done!: Promise<CallToolResult>;
  /** Follows the caller and the connection; aborted by us when the task ended or was cancelled. */
  private readonly stop: LinkedAbort;
  /** 2026-07-28 inputRequests keys already asked: each is asked once over the task's life. */
  private readonly asked = new Set<string>();
  /** 2025-11-25: the open tasks/result, once the task needs input or has ended. */
  private result?: Promise<CallToolResult>;
  private resultSettled = false;
  private lastWrite = 0;
  private lastProgressWrite = 0;
  /** Progress that came within PROGRESS_WRITE_MS of the last written: it goes with the next write. */
  private heldProgress?: TaskProgress;
  /** Set by cancel(): the person's cancel, acknowledged by the server. */
  private cancelledByPerson = false;
  private wake?: () => void;

  constructor(
    private readonly wire: TaskWire,
    record: TaskRecord,
    private readonly hooks: FollowHooks,
    private readonly options: FollowOptions,
  ) {
    this.record = record;
    this.lastWrite = record.lastPolledAt ?? 0;
    this.stop = new LinkedAbort([options.signal, options.lifetime]);
  }

  start(first: TaskSnapshot | undefined): this {
    this.done = this.run(first).finally(() => {
      this.stop.abort(new Error("the task's follow ended"));
    });
    return this;
  }

  async cancel(): Promise<void> {
    if (this.stop.signal.aborted) throw new Error(`the task ${this.record.id} is no longer followed`);
    const bounded = new AbortController();
    await this.wire.cancel(this.record.taskId, bounded.signal);
    this.cancelledByPerson = true;
    this.stop.abort(new Error("cancelled by you"));
  }

  progressed(progress: TaskProgress): void {
    if (this.stop.signal.aborted || !Number.isFinite(progress.progress)) return;
    const bounded: TaskProgress = {
      progress: progress.progress,
      ...(typeof progress.total === "number" && Number.isFinite(progress.total) ? { total: progress.total } : {}),
      ...(typeof progress.message === "string" ? { message: taskText(progress.message) } : {}),
    };
    const now = Date.now();
    if (now - this.lastProgressWrite < PROGRESS_WRITE_MS && bounded.progress !== bounded.total) {
      this.heldProgress = bounded;
      return;
    }
    this.change({ progress: bounded });
  }

  private async run(first: TaskSnapshot | undefined): Promise<CallToolResult> {
    let ending: Ending;
    try {
      ending = await this.poll(first);
    } catch (error) {
      ending = this.stopped(error);
    }
    if (ending.state === "working" || ending.state === "input_required") {
      // Not ended: the record stays as it is, and is followed again once the server reconnects.
      if ("error" in ending) throw ending.error;
      return ending.result;
    }
    const outcome = "error" in ending ? ending.outcome : outcomeOf(ending.result);
    this.change({ state: ending.state, endedAt: Date.now(), outcome: taskText(outcome) });
    if ("error" in ending) throw ending.error;
    return ending.result;
  }

  /** Why the follow stopped before the task ended on its own, as the ending to record. */
  private stopped(error: unknown): Ending {
    const { server, tool } = this.record;
    if (this.cancelledByPerson) return { error: new ToolCallError(`${server}: ${tool} was cancelled (cancelled by you)`), state: "cancelled", outcome: "cancelled by you" };
    if (this.options.signal?.aborted) {
      // The caller went away (the agent left, or its call timed out): the server may stop working on it.
      const reason = this.options.signal.reason;
      this.wire.cancel(this.record.taskId, new AbortController().signal).catch((e: unknown) => this.hooks.log?.(`${server}: cancelling task ${this.record.id} failed: ${errorMessage(e)}`));
      return { error: reason instanceof Error ? reason : new Error(String(reason)), state: "cancelled", outcome: `cancelled: the caller stopped waiting (${errorMessage(reason)})` };
    }
    const code = (error as { code?: unknown }).code;
    if (code === UNKNOWN_TASK && !(error instanceof ToolCallError)) {
      return { error: new ToolCallError(`${server}: ${tool}'s task is gone: the server no longer knows it`, UNKNOWN_TASK), state: "gone", outcome: "the server no longer knows this task" };
    }
    const why = this.options.lifetime?.aborted ? errorMessage(this.options.lifetime.reason) : errorMessage(error);
    return { error: new ToolCallError(`${server}: ${tool} was left running as a task: ${why}`), state: this.record.state, outcome: why };
  }

  /** Polls until the task ends; resolves with how it ended, rejects when the follow stopped first. */
  private async poll(first: TaskSnapshot | undefined): Promise<Ending> {
    const signal = this.stop.signal;
    let snapshot = first ?? (await this.wire.get(this.record.taskId, signal));
    // A 2026-07-28 task as created may have ended already, but never carries its result or error.
    if (first && !this.wire.result && ((first.status === "completed" && !first.result) || (first.status === "failed" && !first.error))) {
      snapshot = await this.wire.get(this.record.taskId, signal);
    }
    for (;;) {
      this.note(snapshot);
      switch (snapshot.status) {
        case "completed":
          return { result: snapshot.result ? (snapshot.result as CallToolResult) : await this.openResult(), state: "completed" };
        case "failed":
          return this.failed(snapshot);
        case "cancelled":
          return { error: new ToolCallError(`${this.record.server}: ${this.record.tool} was cancelled by the server${snapshot.statusMessage ? `: ${taskText(snapshot.statusMessage)}` : ""}`), state: "cancelled", outcome: "cancelled by the server" };
        case "input_required":
          if (this.wire.update) this.askInputs(snapshot.inputRequests ?? {});
          else void this.openResult().catch(() => undefined);
          break;
        default:
          break;
      }
      await this.pause(pollDelay(snapshot.pollIntervalMs, this.options.maxPollMs));
      if (this.resultSettled) return { result: await this.result!, state: "completed" };
      snapshot = await this.getThrough(pollDelay(snapshot.pollIntervalMs, this.options.maxPollMs));
      this.hooks.alive?.();
    }
  }

  /** tasks/get, asked again every `delay` while the server cannot be reached, for up to POLL_OUTAGE_MS. */
  private async getThrough(delay: number): Promise<TaskSnapshot> {
    const signal = this.stop.signal;
    const since = Date.now();
    for (let tries = 0; ; tries++) {
      try {
        return await this.wire.get(this.record.taskId, signal);
      } catch (error) {
        // A JSON-RPC error is the server's answer, and an answer refused here (ToolCallError) would be refused again.
        const answered = typeof (error as { code?: unknown }).code === "number" || error instanceof ToolCallError;
        if (signal.aborted || answered || Date.now() - since >= POLL_OUTAGE_MS) throw error;
        if (tries === 0) this.hooks.log?.(`${this.record.server}: the task ${this.record.id} could not be asked about (${errorMessage(error)}); asking again`);
        await this.pause(delay);
      }
    }
  }

  /** A failed task: the server's error (2026 inline; 2025 through tasks/result, which may instead hold an isError result). */
  private async failed(snapshot: TaskSnapshot): Promise<Ending> {
    const { server, tool } = this.record;
    let error = snapshot.error;
    if (!error && this.wire.result) {
      try {
        return { result: await this.openResult(), state: "failed" };
      } catch (e) {
        const code = (e as { code?: unknown }).code;
        if (typeof code !== "number") throw e;
        error = { code, message: errorMessage(e), data: (e as { data?: unknown }).data };
      }
    }
    const message = error?.message ?? snapshot.statusMessage ?? "no reason given";
    return { error: new ToolCallError(`${server}: ${tool} failed: ${taskText(message)}`, error?.code, error?.data), state: "failed", outcome: `failed: ${message}` };
  }

  /** 2025-11-25: tasks/result, opened once; while it is open the server delivers what it queued on the task. */
  private openResult(): Promise<CallToolResult> {
    if (!this.wire.result) return Promise.reject(new Error("the task ended without a result"));
    if (!this.result) {
      this.result = this.wire.result(this.record.taskId, this.stop.signal);
      this.result.then(
        () => {
          this.resultSettled = true;
          this.wake?.();
        },
        // Opened again at the next input_required (or at the end) when it failed.
        () => void (this.result = undefined),
      );
    }
    return this.result;
  }

  /** 2026-07-28: each new inputRequests key is asked once; its answer goes back with tasks/update. */
  private askInputs(requests: Record<string, TaskInputRequest>): void {
    const update = this.wire.update!.bind(this.wire);
    for (const [key, request] of Object.entries(requests)) {
      if (this.asked.has(key)) continue;
      this.asked.add(key);
      const signal = this.stop.signal;
      this.hooks
        .ask(request, signal)
        .then((response) => update(this.record.taskId, { [key]: response }, signal))
        .catch((error: unknown) => {
          if (!signal.aborted) this.hooks.log?.(`${this.record.server}: the input task ${this.record.id} asked for (${key}) was not given: ${errorMessage(error)}`);
        });
    }
  }

  /** What a snapshot says, into the record when it is news (or when lastPolledAt was not written for a while). */
  private note(snapshot: TaskSnapshot): void {
    const now = Date.now();
    const patch: Partial<TaskRecord> = { lastPolledAt: now };
    let news = false;
    if (snapshot.status !== this.record.state && (snapshot.status === "working" || snapshot.status === "input_required")) {
      patch.state = snapshot.status;
      news = true;
    }
    const message = snapshot.statusMessage !== undefined ? taskText(snapshot.statusMessage) : undefined;
    if (message !== undefined && message !== this.record.statusMessage) {
      patch.statusMessage = message;
      news = true;
    }
    if (news || now - this.lastWrite >= QUIET_WRITE_MS) this.change(patch);
  }

  private change(patch: Partial<TaskRecord>): void {
    this.lastWrite = Date.now();
    if (patch.progress) this.lastProgressWrite = this.lastWrite;
    else if (this.heldProgress) patch = { ...patch, progress: this.heldProgress };
    this.heldProgress = undefined;
    this.record = { ...this.record, ...patch };
    try {
      this.hooks.ledger.updated(this.record.id, patch);
    } catch (error) {
      // The ledger (History's file) failing must not fail the task's call: the change is still told.
      this.hooks.log?.(`${this.record.server}: the task ${this.record.id} could not be written: ${errorMessage(error)}`);
    }
    this.hooks.emit(this.record);
  }

  /** Waits `ms`, or less when tasks/result settles; rejects when the follow is stopped. */
  private pause(ms: number): Promise<void> {
    const signal = this.stop.signal;
    return new Promise<void>((resolve, reject) => {
      if (signal.aborted) return reject(new Interrupted(errorMessage(signal.reason)));
      const done = () => {
        clearTimeout(timer);
        signal.removeEventListener("abort", aborted);
        this.wake = undefined;
      };
      const aborted = () => {
        done();
        reject(new Interrupted(errorMessage(signal.reason)));
      };
      const timer = setTimeout(() => (done(), resolve()), ms);
      this.wake = () => (done(), resolve());
      signal.addEventListener("abort", aborted, { once: true });
    });
  }
}

/** The outcome line of a result: its first text, bounded. */
function outcomeOf(result: CallToolResult): string {
  const text = joinText(result.content).split("\n").find((line) => line.trim() !== "") ?? "";
  return `${result.isError === true ? "error: " : ""}${text || "done"}`;
}
