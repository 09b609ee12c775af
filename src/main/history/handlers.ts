// The History view's channels (history:list, history:clear, history:settings), served by the
// one handler map. Arguments are untrusted page input: each is checked before the store sees it.
import type { HandlerMap } from "../../shared/contract";
import type { HistoryInvokeMap } from "../../shared/history";
import { ArgumentError, HandlerError } from "../rpc/envelope";
import { defineHandlers } from "../rpc/handlers";
import { noArg } from "../rpc/validate";
import type { HistoryRecorder } from "./recorder";
import { HistoryUnavailableError } from "./db";
import type { HistoryStore } from "./store";
import { HISTORY_OUTCOMES, MAX_HISTORY_DAYS, type HistoryInfo, type HistoryOutcome, type HistoryPage, type HistoryQuery } from "../../shared/history";
import { isPlainObject } from "../../shared/unknown-value";

export type HistoryHandlers = HandlerMap<HistoryInvokeMap>;

export interface HistoryHandlerDeps {
  store: HistoryStore;
  /** Runs retention after the days to keep change (optional: the store sweeps at start anyway). */
  recorder?: HistoryRecorder;
}

function optionalString(channel: string, input: Record<string, unknown>, key: string, max: number): string | undefined {
  const value = input[key];
  if (value === undefined || value === "") return undefined;
  if (typeof value !== "string") throw new ArgumentError(`${channel}: "${key}" must be a string.`);
  if (value.length > max) throw new ArgumentError(`${channel}: "${key}" is longer than ${max} characters.`);
  return value;
}

function optionalInteger(channel: string, input: Record<string, unknown>, key: string, min: number, max: number): number | undefined {
  const value = input[key];
  if (value === undefined) return undefined;
  if (typeof value !== "number" || !Number.isInteger(value) || value < min || value > max) {
    throw new ArgumentError(`${channel}: "${key}" must be a whole number from ${min} to ${max}.`);
  }
  return value;
}

function objectOrEmpty(channel: string, arg: unknown): Record<string, unknown> {
  if (arg === undefined || arg === null) return {};
  if (!isPlainObject(arg)) throw new ArgumentError(`${channel} needs an object argument.`);
  return arg;
}

function listArg(arg: unknown): HistoryQuery {
  const channel = "history:list";
  const input = objectOrEmpty(channel, arg);
  const query: HistoryQuery = {};
  const text = optionalString(channel, input, "query", 500);
  if (text !== undefined) query.query = text;
  for (const key of ["kind", "server", "agent"] as const) {
    const value = optionalString(channel, input, key, 200);
    if (value !== undefined) query[key] = value;
  }
  const outcome = optionalString(channel, input, "outcome", 20);
  if (outcome !== undefined) {
    if (!(HISTORY_OUTCOMES as readonly string[]).includes(outcome)) throw new ArgumentError(`${channel}: "outcome" must be one of ${HISTORY_OUTCOMES.join(", ")}.`);
    query.outcome = outcome as HistoryOutcome;
  }
  // Epoch ms between 1970 and year 10000: anything else is not a time a person picked.
  const since = optionalInteger(channel, input, "since", 0, 253_402_300_800_000);
  if (since !== undefined) query.since = since;
  const until = optionalInteger(channel, input, "until", 0, 253_402_300_800_000);
  if (until !== undefined) query.until = until;
  const limit = optionalInteger(channel, input, "limit", 1, 1000);
  if (limit !== undefined) query.limit = limit;
  const offset = optionalInteger(channel, input, "offset", 0, 10_000_000);
  if (offset !== undefined) query.offset = offset;
  return query;
}

/** A store that cannot serve says so as a refusal the page can show, not as a crash. */
function guarded<T>(run: () => T): T {
  try {
    return run();
  } catch (error) {
    if (error instanceof HistoryUnavailableError) throw new HandlerError("history-unavailable", error.message);
    if (error instanceof ArgumentError || error instanceof HandlerError) throw error;
    throw new HandlerError("history-failed", `History could not be read: ${(error as Error).message}`);
  }
}

export function createHistoryHandlers({ store, recorder }: HistoryHandlerDeps): HistoryHandlers {
  const info = (): HistoryInfo => ({ ...store.settings(), status: store.status() });
  return defineHandlers<HistoryInvokeMap>({
    "history:list": async (arg): Promise<HistoryPage> => {
      const query = listArg(arg);
      return guarded(() => store.list(query));
    },
    "history:clear": async (arg) => {
      noArg("history:clear", arg);
      return { removed: guarded(() => store.clear()) };
    },
    "history:settings": async (arg) => {
      const channel = "history:settings";
      const input = objectOrEmpty(channel, arg);
      const change: { enabled?: boolean; days?: number } = {};
      if (input.enabled !== undefined) {
        if (typeof input.enabled !== "boolean") throw new ArgumentError(`${channel}: "enabled" must be true or false.`);
        change.enabled = input.enabled;
      }
      const days = optionalInteger(channel, input, "days", 1, MAX_HISTORY_DAYS);
      if (days !== undefined) change.days = days;
      if (change.enabled !== undefined || change.days !== undefined) {
        guarded(() => store.setSettings(change));
        if (change.days !== undefined) recorder?.sweep();
      }
      return info();
    },
  });
}

/** The channels when this session keeps no history (no path given, e.g. tests): a plain refusal. */
export function historyOffHandlers(): HistoryHandlers {
  const off = async (): Promise<never> => {
    throw new HandlerError("history-unavailable", "This companion session keeps no history.");
  };
  return defineHandlers<HistoryInvokeMap>({ "history:list": off, "history:clear": off, "history:settings": off });
}
