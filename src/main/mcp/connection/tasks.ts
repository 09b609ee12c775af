// A connection's tasks: a call that may become a task goes on the connection's wire
// (tasks/*-wire.ts, picked at connect: 2025-11-25 for a tool that needs one, 2026-07-28 for every
// untyped call, tool-listing.ts) and a task is followed (tasks/follow.ts) under the call; the
// server's requests related to the task, and a 2026-07-28 call's questions before its task
// exists, belong to that call (server-requests.ts); a task the
// person cancels is cancelled on the server; after a connect, tasks the ledger still has live
// for this server are followed again (tasks/resume.ts).
import { AsyncLocalStorage } from "node:async_hooks";
import type { CallToolResult, Client, ClientCapabilities, Implementation, Transport } from "@modelcontextprotocol/client";
import { TASKS_EXTENSION_ID_V2 } from "@modelcontextprotocol/ext-tasks/core/v2";
import type { TaskReceiverBinding } from "@modelcontextprotocol/ext-tasks/receiver";
import type { TaskRecord } from "../../../shared/tasks";
import { errorMessage } from "../../../shared/unknown-value";
import type { ServerConfig } from "../config/config";
import type { ExecuteContext } from "../types";
import { followTask, newTaskRecord, type Followed, type FollowHooks } from "../tasks/follow";
import type { TaskLedger } from "../tasks/ledger";
import { resumeTasks } from "../tasks/resume";
import type { TaskInputRequest, TaskWire } from "../tasks/wire";
import { modernTaskWire } from "../tasks/modern-wire";
import { LegacyTaskWire, offersToolTasks, type ListedTask } from "../tasks/legacy-wire";
import { bindReceiver } from "../tasks/receiver";
import type { Era } from "./era";
import { IdleTimer } from "./idle-timer";
import type { ActiveCall } from "./active-call";
import type { ServerRequests } from "./server-requests";

export interface TasksHost {
  readonly config: ServerConfig;
  readonly ledger: TaskLedger;
  readonly requests: ServerRequests;
  emit(record: TaskRecord): void;
  /** The connection's task wire while connected, else undefined. */
  wire(): TaskWire | undefined;
  /** Aborted when the current connection ends: follows stop, their tasks stay live. */
  lifetime(): AbortSignal;
  log(line: string): void;
}

export class ConnectionTasks {
  /** The tasks followed now, by the companion's id. */
  private readonly followed = new Map<string, Followed>();
  /** The task each call in flight is following, for the progress its server sends on the call's token. */
  private readonly ofCall = new WeakMap<ActiveCall, Followed>();
  /** The call whose tools/call is on the wire: a 2026-07-28 call asking before it runs asks for it. */
  private readonly starting = new AsyncLocalStorage<ActiveCall>();

  constructor(private readonly host: TasksHost) {}

  /**
   * A call of `tool` as a task: the server may still answer at once (a plain result); a task is
   * recorded and followed until it ends, its polls keeping the call's idle timer from running out.
   */
  async call(wire: TaskWire, call: ActiveCall, args: Record<string, unknown>, signal: AbortSignal, progressToken: string | undefined): Promise<CallToolResult> {
    const start = await this.starting.run(call, () => wire.callTool(call.tool, args, signal, progressToken !== undefined ? { progressToken } : {}));
    if (start.kind === "result") return start.result;
    call.timer.touch();
    const record = newTaskRecord({ server: this.host.config.name, tool: call.tool, agent: call.agent, generation: wire.generation }, start.task);
    try {
      this.host.ledger.started(record);
    } catch (error) {
      this.host.log(`${this.host.config.name}: the task ${record.id} could not be written: ${errorMessage(error)}`);
    }
    this.host.emit(record);
    const followed = this.track(record, wire, call, start.task, signal);
    this.ofCall.set(call, followed);
    return followed.done;
  }

  /**
   * The context a task call runs under: its caller's, with progress also kept in the task's record
   * (so the call always sends a progress token: 2025-11-25 progress on a task uses the call's).
   */
  contextOf(ctx: ExecuteContext, call: () => ActiveCall): ExecuteContext {
    return {
      ...ctx,
      onprogress: (progress) => {
        ctx.onprogress?.(progress);
        this.ofCall.get(call())?.progressed(progress);
      },
    };
  }

  /**
   * A 2026-07-28 tools/call answered `input_required` before any task exists (modern-wire.ts):
   * each request is asked for the call that made it, as a task's inputRequests are (track below).
   */
  async answerInputs(requests: Record<string, TaskInputRequest>, signal: AbortSignal): Promise<Record<string, Record<string, unknown>>> {
    const owner = this.starting.getStore();
    if (!owner) throw new Error("a tools/call asked for input outside of any call");
    const keys = Object.keys(requests);
    const answers = await Promise.all(keys.map((key) => this.host.requests.answerInput(owner, requests[key].method, requests[key].params, signal)));
    return Object.fromEntries(keys.map((key, i) => [key, answers[i]]));
  }

  /** The connection's task wire while connected, whichever tools go on it. */
  wire(): TaskWire | undefined {
    return this.host.wire();
  }

  /** The wire of a client that just connected (taskWireFor), its pre-task questions answered here. */
  wireFor(client: Client, era: Era | undefined, setting: Pick<TaskWireSetting, "transport" | "clientInfo" | "clientCapabilities" | "maxWaitMs">): TaskWire | undefined {
    const { config } = this.host;
    return taskWireFor(client, era, { ...setting, requestTimeoutMs: config.callTimeout, server: config.name, answerInputs: (requests, signal) => this.answerInputs(requests, signal) });
  }

  /** The person cancels a task of this server (McpSource.cancelTask). */
  async cancel(record: TaskRecord): Promise<void> {
    const followed = this.followed.get(record.id);
    if (followed) {
      await followed.cancel();
      // The record ends as cancelled when its follow has seen the cancel through.
      await followed.done.catch(() => undefined);
      return;
    }
    const wire = this.host.wire();
    if (!wire) throw new Error(`server "${record.server}" is not connected`);
    await wire.cancel(record.taskId, new AbortController().signal);
    const patch = { state: "cancelled" as const, endedAt: Date.now(), outcome: "cancelled by you" };
    this.host.ledger.updated(record.id, patch);
    this.host.emit({ ...record, ...patch });
  }

  /**
   * What the server still keeps (2025-11-25 tasks/list, for the Tasks view), at most `maxPages`
   * pages; undefined when the connection's wire has no list.
   */
  async list(signal: AbortSignal, maxPages = 10): Promise<ListedTask[] | undefined> {
    const wire = this.host.wire();
    if (!(wire instanceof LegacyTaskWire)) return undefined;
    const tasks: ListedTask[] = [];
    let cursor: string | undefined;
    for (let page = 0; page < maxPages; page++) {
      const listed = await wire.list(signal, cursor);
      tasks.push(...listed.tasks);
      cursor = listed.nextCursor;
      if (cursor === undefined) break;
    }
    return tasks;
  }

  /** The server connected: its live tasks nobody follows are followed again, or marked gone. Never throws. */
  resume(): void {
    try {
      this.resumeLive();
    } catch (error) {
      // The ledger (History's file) failing must not fail the connect: the tasks wait for the next one.
      this.host.log(`${this.host.config.name}: resuming its tasks failed: ${errorMessage(error)}`);
    }
  }

  private resumeLive(): void {
    const { config, ledger } = this.host;
    const resumed = resumeTasks({
      server: config.name,
      ledger,
      emit: (record) => this.host.emit(record),
      wire: () => this.host.wire(),
      isFollowed: (id) => this.followed.has(id),
      follow: (record, wire) => {
        const owner = standIn(record);
        const followed = this.track(record, wire, owner, undefined, undefined);
        followed.done.then(
          () => this.host.log(`${config.name}: resumed task ${record.id} (${record.tool}) ended`),
          (error) => this.host.log(`${config.name}: resumed task ${record.id} (${record.tool}): ${errorMessage(error)}`),
        );
      },
    });
    if (resumed > 0) this.host.log(`${config.name}: following ${resumed} task(s) again`);
  }

  private track(record: TaskRecord, wire: TaskWire, owner: ActiveCall, first: Parameters<typeof followTask>[1], signal: AbortSignal | undefined): Followed {
    const { requests } = this.host;
    const hooks: FollowHooks = {
      ledger: this.host.ledger,
      emit: (r) => this.host.emit(r),
      ask: (request, askSignal) => requests.answerInput(owner, request.method, request.params, askSignal),
      alive: () => owner.timer.touch(),
      log: (line) => this.host.log(line),
    };
    requests.ownTask(record.taskId, owner);
    // Half the idle time: a poll answered in time always comes before the call's idle timer runs out.
    const followed = followTask(wire, first, record, hooks, { signal, lifetime: this.host.lifetime(), maxPollMs: this.host.config.callTimeout / 2 });
    this.followed.set(record.id, followed);
    const ended = (reason?: unknown) => {
      this.followed.delete(record.id);
      requests.disownTask(record.taskId);
      // A resumed task's questions end with it (a caller's end with its call, calls.ts).
      if (!signal) requests.leave(owner, undefined, reason ?? new Error(`the task ${record.id} ended`));
    };
    followed.done.then(() => ended(), ended);
    return followed;
  }
}

/** The call a resumed task's questions belong to: no caller waits, but they still name its agent and tool. */
function standIn(record: TaskRecord): ActiveCall {
  const timer = new IdleTimer(1, () => {});
  timer.stop();
  return { ...(record.agent !== undefined ? { agent: record.agent } : {}), rootsKey: "config", tool: record.tool, ctx: {}, timer, questions: new Set() };
}

/**
 * Binds the receiver of the server's own task-augmented requests, right after server-requests.ts
 * installed its handlers (receiver.ts wraps them) and before the client connects.
 */
export function bindClientTasks(client: Client, requests: ServerRequests, canElicit: boolean, ttlMs: number, log: (line: string) => void): TaskReceiverBinding {
  return bindReceiver(client, {
    ...(canElicit ? { elicit: (params, signal) => requests.answerElicitation(params, signal) } : {}),
    sample: (params, signal) => requests.answerSampling(params, signal),
    ttlMs,
    log,
  });
}

/** What a 2026-07-28 wire needs of its connection besides the client. */
export interface TaskWireSetting {
  requestTimeoutMs: number;
  maxWaitMs: number;
  server: string;
  transport: Transport;
  /** What the client was built with (the SDK client has no getter for either). */
  clientInfo: Implementation;
  clientCapabilities: ClientCapabilities;
  answerInputs: ConnectionTasks["answerInputs"];
}

/** Whether a 2026-07-28 server declared the tasks extension at initialize. */
export function offersTasksExtension(capabilities: Record<string, unknown> | undefined): boolean {
  const extensions = capabilities?.extensions as Record<string, unknown> | undefined;
  return typeof extensions === "object" && extensions !== null && extensions[TASKS_EXTENSION_ID_V2] !== undefined;
}

/**
 * The task wire of a connected client, by the era it negotiated: 2025-11-25 tasks when the server
 * offers them for tools/call; the 2026-07-28 extension (modern-wire.ts, which takes its responses
 * off `transport`: made once per connect, after it) when the server declared it.
 */
export function taskWireFor(client: Client, era: Era | undefined, setting: TaskWireSetting): TaskWire | undefined {
  const capabilities = client.getServerCapabilities() as Record<string, unknown> | undefined;
  if (era === "legacy" && offersToolTasks(capabilities)) return new LegacyTaskWire(client, setting);
  if (era === "modern" && offersTasksExtension(capabilities)) {
    const { server, clientInfo, clientCapabilities, answerInputs } = setting;
    return modernTaskWire(client, setting.transport, { server, clientInfo, clientCapabilities, answerInputs });
  }
  return undefined;
}

/** The connection ended: a wire with requests of its own in flight (2026-07-28) fails them with `reason`. */
export function closeTaskWire(wire: TaskWire | undefined, reason: Error): void {
  if (wire && "close" in wire && typeof wire.close === "function") (wire as { close(reason: Error): void }).close(reason);
}
