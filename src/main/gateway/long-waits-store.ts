// Where the gateway keeps calls that returned "not answered yet" to an opted-in agent
// (long-waits.ts) until the agent claims their result with `toolnexus_wait`. Each is kept under an
// unguessable id and bound to the agent that made it (its credential and name): another agent, or
// the same one under another credential, is told no such call exists. A result is handed out
// once. One nobody claims is dropped an hour after it came; a call still running ends by the
// companion's own bound on waiting for the person. Bounded per agent and in all: when full, the
// oldest unclaimed result makes room, and with none to drop a call is not parked at all (it then
// waits as any call does).
import { randomBytes } from "node:crypto";
import type { CallToolResult } from "@modelcontextprotocol/server";
import { LONG_WAIT_KEEP_MS, MAX_LONG_WAITS_PER_AGENT, MAX_LONG_WAITS_TOTAL } from "../../shared/limits";

export interface ParkedCall {
  readonly id: string;
  /** Credential and agent name: whose call it is. */
  readonly owner: string;
  /** The tool as the agent called it. */
  readonly tool: string;
  readonly structured: boolean;
  /** When the call began. */
  readonly since: number;
  /** Settles with what the agent gets; never rejects. */
  readonly result: Promise<CallToolResult>;
  /** Set once the call ended. */
  done?: { result: CallToolResult; at: number };
  /** Questions of the call open now. */
  open: number;
  /** Told when a question of the call opens or ends (a waiting `toolnexus_wait`'s heartbeats). */
  readonly watchers: Set<(open: boolean) => void>;
}

export interface ParkInput {
  owner: string;
  tool: string;
  structured: boolean;
  /** The call's outcome (a rejection becomes `failed(error)`). */
  running: Promise<CallToolResult>;
  failed: (error: unknown) => CallToolResult;
  /** Ends the call: the gateway closes while it runs. */
  abort: (reason: Error) => void;
  /** Questions open at parking. */
  open: number;
  /** When the call began (default: now). */
  since?: number;
}

export interface StoreOptions {
  keepMs?: number;
  perAgent?: number;
  total?: number;
  now?: () => number;
}

export class WaitStore {
  private readonly calls = new Map<string, ParkedCall & { abort: (reason: Error) => void; expiry?: ReturnType<typeof setTimeout> }>();
  private readonly keepMs: number;
  private readonly perAgent: number;
  private readonly total: number;
  private readonly now: () => number;
  private closed = false;

  constructor(options: StoreOptions = {}) {
    this.keepMs = options.keepMs ?? LONG_WAIT_KEEP_MS;
    this.perAgent = options.perAgent ?? MAX_LONG_WAITS_PER_AGENT;
    this.total = options.total ?? MAX_LONG_WAITS_TOTAL;
    this.now = options.now ?? Date.now;
  }

  /** Parks a running call; undefined when there is no room (nothing unclaimed to drop). */
  park(input: ParkInput): ParkedCall | undefined {
    if (this.closed) return undefined;
    if (this.countOf(input.owner) >= this.perAgent && !this.dropOldestDone((c) => c.owner === input.owner)) return undefined;
    if (this.calls.size >= this.total && !this.dropOldestDone(() => true)) return undefined;
    const id = `tnw_${randomBytes(18).toString("base64url")}`;
    const result = input.running.catch(input.failed);
    const entry: ParkedCall & { abort: (reason: Error) => void; expiry?: ReturnType<typeof setTimeout> } = {
      id,
      owner: input.owner,
      tool: input.tool,
      structured: input.structured,
      since: input.since ?? this.now(),
      result,
      open: input.open,
      watchers: new Set(),
      abort: input.abort,
    };
    this.calls.set(id, entry);
    void result.then((outcome) => {
      entry.done = { result: outcome, at: this.now() };
      if (!this.calls.has(id)) return;
      entry.expiry = setTimeout(() => this.calls.delete(id), this.keepMs);
      entry.expiry.unref?.();
    });
    return entry;
  }

  /** The call `id` names, if `owner` parked it. */
  find(id: string, owner: string): ParkedCall | undefined {
    const entry = this.calls.get(id);
    return entry?.owner === owner ? entry : undefined;
  }

  /** The call's result, once: undefined while it runs or after someone claimed it. */
  claim(call: ParkedCall): CallToolResult | undefined {
    const entry = this.calls.get(call.id);
    if (entry !== call || !entry.done) return undefined;
    this.calls.delete(call.id);
    clearTimeout(entry.expiry);
    return entry.done.result;
  }

  /** A question of the parked call opened or ended. */
  question(call: ParkedCall, open: boolean): void {
    call.open = Math.max(0, call.open + (open ? 1 : -1));
    for (const watch of [...call.watchers]) watch(open);
  }

  size(): number {
    return this.calls.size;
  }

  /** The gateway closes: calls still running end, results are dropped. */
  close(): void {
    this.closed = true;
    for (const entry of this.calls.values()) {
      clearTimeout(entry.expiry);
      if (!entry.done) entry.abort(new Error("the companion is closing"));
    }
    this.calls.clear();
  }

  private countOf(owner: string): number {
    let n = 0;
    for (const entry of this.calls.values()) if (entry.owner === owner) n += 1;
    return n;
  }

  /** Drops the unclaimed result that came first, among `among`; false when none has come. */
  private dropOldestDone(among: (c: ParkedCall) => boolean): boolean {
    let oldest: (ParkedCall & { expiry?: ReturnType<typeof setTimeout> }) | undefined;
    for (const entry of this.calls.values()) {
      if (entry.done && among(entry) && (!oldest || entry.done.at < oldest.done!.at)) oldest = entry;
    }
    if (!oldest) return false;
    clearTimeout(oldest.expiry);
    this.calls.delete(oldest.id);
    return true;
  }
}
