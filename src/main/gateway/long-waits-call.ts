// One opted-in agent's call under a long wait (long-waits.ts): it returns its result as any call
// does, unless it is still waiting on the person at the agent's deadline; then it is parked
// (long-waits-store.ts) and the agent gets "not answered yet" with the call's id. A question that
// opens after the deadline parks it at once. `toolnexus_wait` (waitForParked) waits on a parked
// call up to the deadline again and hands over its result once.
import type { CallToolResult } from "@modelcontextprotocol/server";
import { notYetResult, unknownCallResult } from "./long-waits";
import type { ParkedCall, WaitStore } from "./long-waits-store";
import type { ProgressRelay } from "./heartbeat";

/** What the gateway keeps for long waits: the store, and each agent's deadline when it opted in. */
export interface LongWaits {
  store: WaitStore;
  /** The agent's deadline, or undefined when it does not wait long (read per call: the config is followed live). */
  deadline(agent: string): number | undefined;
  log(line: string): void;
}

export interface LongWaitCall {
  /** ExecuteContext.onquestion, for this call. */
  question(open: boolean): void;
  /**
   * The call's outcome, or "not answered yet" once it is parked: then `detach` runs first (the
   * call stops following the agent's request and stream), and the store holds `running`.
   */
  race(running: Promise<CallToolResult>, detach: () => void, failed: (error: unknown) => CallToolResult, abort: (reason: Error) => void): Promise<CallToolResult>;
}

export interface CallFacts {
  /** Credential and agent name (the store's owner). */
  owner: string;
  /** The tool as the agent called it. */
  tool: string;
  structured: boolean;
  deadlineMs: number;
}

export function longWaitCall(waits: LongWaits, facts: CallFacts): LongWaitCall {
  const started = Date.now();
  let open = 0;
  let overdue = false;
  let parked: ParkedCall | undefined;
  let park: (() => void) | undefined;
  return {
    question(isOpen) {
      open = Math.max(0, open + (isOpen ? 1 : -1));
      if (parked) waits.store.question(parked, isOpen);
      else if (isOpen && overdue) park?.();
    },
    race(running, detach, failed, abort) {
      return new Promise<CallToolResult>((resolve, reject) => {
        let settled = false;
        let full = false;
        park = () => {
          if (settled || parked || full) return;
          parked = waits.store.park({ owner: facts.owner, tool: facts.tool, structured: facts.structured, running, failed, abort, open, since: started });
          if (!parked) {
            full = true;
            waits.log(`gateway: ${facts.tool} waits on past the deadline: no room to keep more unclaimed calls of this agent`);
            return;
          }
          settled = true;
          clearTimeout(timer);
          detach();
          resolve(notYetResult({ id: parked.id, tool: facts.tool, waitingOnPerson: true, waitedMs: Date.now() - started, structured: facts.structured }));
        };
        const timer = setTimeout(() => {
          overdue = true;
          if (open > 0) park?.();
        }, facts.deadlineMs);
        timer.unref?.();
        running.then(
          (result) => {
            clearTimeout(timer);
            if (settled) return;
            settled = true;
            resolve(result);
          },
          (error) => {
            clearTimeout(timer);
            if (settled) return;
            settled = true;
            reject(error);
          },
        );
      });
    },
  };
}

/** Waits up to `ms`, or until the signal aborts (then rejects with its reason). */
function pause<T>(work: Promise<T>, ms: number, signal: AbortSignal | undefined): Promise<T | undefined> {
  return new Promise<T | undefined>((resolve, reject) => {
    const timer = setTimeout(() => done(() => resolve(undefined)), ms);
    timer.unref?.();
    const onAbort = () => done(() => reject(signal?.reason));
    const done = (then: () => void) => {
      clearTimeout(timer);
      signal?.removeEventListener("abort", onAbort);
      then();
    };
    if (signal?.aborted) return onAbort();
    signal?.addEventListener("abort", onAbort, { once: true });
    work.then((value) => done(() => resolve(value)));
  });
}

export interface WaitRequest {
  owner: string;
  id: string;
  deadlineMs: number;
  /** The agent's cancel of this toolnexus_wait (the parked call goes on). */
  signal?: AbortSignal;
  /** Heartbeats for this toolnexus_wait, when it sent a progress token. */
  relay?: ProgressRelay;
}

/** `toolnexus_wait`: the parked call's result once, or "not answered yet" again at the deadline. */
export async function waitForParked(store: WaitStore, request: WaitRequest): Promise<CallToolResult> {
  const call = store.find(request.id, request.owner);
  if (!call) return unknownCallResult(request.id);
  if (!call.done) {
    const relay = request.relay;
    const watch = relay ? (open: boolean) => relay.question(open) : undefined;
    if (watch) {
      call.watchers.add(watch);
      for (let i = 0; i < call.open; i++) watch(true);
    }
    try {
      await pause(call.result, request.deadlineMs, request.signal);
    } finally {
      if (watch) call.watchers.delete(watch);
      relay?.stop();
    }
  }
  const result = store.claim(call);
  if (result) return result;
  if (!call.done) return notYetResult({ id: call.id, tool: call.tool, waitingOnPerson: call.open > 0, waitedMs: Date.now() - call.since, structured: call.structured });
  // Another toolnexus_wait of this agent took it first.
  return unknownCallResult(request.id);
}
