// The one contract between the renderer and main. The Electron preload and the browser
// WebSocket transport both implement `CompanionApi`; main serves both from one handler map.
import { AGENTS_INVOKE_CHANNELS, type AgentsInvokeMap, type TokenKept } from "./agents";
export type { TokenKept } from "./agents";
import { DEVICES_EVENT_CHANNELS, DEVICES_INVOKE_CHANNELS, type DevicesEventMap, type DevicesInvokeMap } from "./devices";
import { HISTORY_INVOKE_CHANNELS, type HistoryInvokeMap } from "./history";
import { REACH_INVOKE_CHANNELS, type ReachInvokeMap } from "./reach";
import { RULES_EVENT_CHANNELS, RULES_INVOKE_CHANNELS, type RulesEventMap, type RulesInvokeMap } from "./rules";
import type { ServerFormValue, ServerSaveArg, ServerSaveResult } from "./server-form";
import type { ServerImportArg, ServerImportPlan, ServerImportResult } from "./server-import";
import type { TasksList } from "./tasks";
import type { Answer, InboxEvent, PendingEntry, ServerView, ToolInfo, ToolRunResult } from "./types";

/** How big History is, and the most it may grow to (the oldest records go first past it). */
export interface HistorySize {
  bytes: number;
  budgetBytes: number;
}

export interface Settings {
  notificationsPaused: boolean;
  /** Epoch ms the pause ends, when paused for a while rather than until resumed. */
  pausedUntil?: number;
  startAtLogin: boolean;
  /** `tokenKept`: where the gateway token survives a restart (main always sends it). */
  gateway: { url: string; tokenSet: boolean; tokenKept?: TokenKept };
  keychain: { available: boolean; detail: string };
  /** Names only; the renderer never sees a secret's value. */
  secretNames: string[];
  /** Absent when this companion keeps no history. */
  history?: HistorySize;
}

/**
 * Main's verdict on a form's current values, from the same validator the Inbox runs at answer
 * time. `fieldErrors` is keyed by field; "" (or a key the form does not show) is about the form
 * as a whole. The page shows these; it never validates by itself.
 */
export interface FormCheck {
  ok: boolean;
  errors: string[];
  fieldErrors: Record<string, string[]>;
}

/** Answer as the renderer sends it; main fills in nothing but validates everything. */
export type AnswerInput = Answer;

/** Invoke channels: channel → [argument, result]. */
/** The Servers view's actions on the companion's own servers (src/main/mcp/server-handlers.ts). */
export interface ServerManagementInvokeMap {
  /** Restart a server now, or retry one in crash-loop (forgets its earlier failures). */
  "servers:restart": [{ name: string }, ServerView[]];
  /** Enable or disable a server in the config file; the watcher applies the edit. */
  "servers:setEnabled": [{ name: string; enabled: boolean }, ServerView[]];
  /** Remove a server from the config file. */
  "servers:remove": [{ name: string }, ServerView[]];
  /** Sign in to a remote server that needs OAuth: a sign-in question opens in the Inbox. */
  "servers:signIn": [{ name: string }, ServerView[]];
  /** Forget a remote server's OAuth tokens and registration (every stored item). */
  "servers:signOut": [{ name: string }, ServerView[]];
  /** "Try a question": start the shipped demo server for this session (the config is not written). */
  "servers:tryDemo": [void, ServerView[]];
  /** What other clients hold, per client and file, and what importing each would change (nothing written). */
  "servers:importPlan": [void, ServerImportPlan];
  /** Adds the picked new servers of the plan whose fingerprint this is; refuses a stale plan (plan-changed). */
  "servers:import": [ServerImportArg, ServerImportResult];
  /** No config file of the companion's own yet (show the first run), and the path in use. */
  "app:firstRun": [void, { firstRun: boolean; configPath: string }];
  /** One tool whole (its input schema too), when the person opens it in the Servers view. */
  "tools:get": [{ tool: string }, ToolInfo];
  /** A config server's entry as the Edit form shows it (secret-looking literal values `kept`, not sent). */
  "servers:entry": [{ name: string }, ServerFormValue];
  /** Adds (no `original`) or changes a config server; refused values come back as field errors, nothing written. */
  "servers:save": [ServerSaveArg, ServerSaveResult];
  /** Stops the session-only demo server ("Try a question"); the config is not touched. */
  "servers:stopDemo": [void, ServerView[]];
}

const SERVER_MANAGEMENT_CHANNELS = [
  "servers:restart",
  "servers:setEnabled",
  "servers:remove",
  "servers:tryDemo",
  "servers:importPlan",
  "servers:import",
  "servers:signIn",
  "servers:signOut",
  "app:firstRun",
  "tools:get",
  "servers:entry",
  "servers:save",
  "servers:stopDemo",
] as const satisfies readonly (keyof ServerManagementInvokeMap)[];

/** The Tasks view's channels (src/main/history/tasks-handlers.ts). */
export interface TasksInvokeMap {
  /** The tasks the companion follows: live first, then the recently ended. */
  "tasks:list": [void, TasksList];
  /** Cancels a live task (by its TaskRecord.id) on its server; resolves with the list after. */
  "tasks:cancel": [{ id: string }, TasksList];
}

const TASKS_INVOKE_CHANNELS = ["tasks:list", "tasks:cancel"] as const satisfies readonly (keyof TasksInvokeMap)[];

export interface InvokeMap extends HistoryInvokeMap, RulesInvokeMap, ServerManagementInvokeMap, AgentsInvokeMap, TasksInvokeMap, ReachInvokeMap, DevicesInvokeMap {
  "inbox:list": [void, PendingEntry[]];
  "inbox:answer": [AnswerInput, Answer];
  "servers:list": [void, ServerView[]];
  "tools:run": [{ tool: string; args: Record<string, unknown> }, ToolRunResult];
  /** Checks a pending form question's values against its schema; refuses an unknown id (unknown-id). */
  "forms:check": [{ id: string; data: Record<string, unknown> }, FormCheck];
  /** Checks a tool's arguments against its input schema, as the Servers view's Run form fills them. */
  "tools:check": [{ tool: string; args: Record<string, unknown> }, FormCheck];
  /**
   * The person chose to open the `url` of pending authorization question `id`. Electron opens it
   * in the system browser (`opened: true`); in browser mode the page opens it itself, from the
   * returned url, in a new tab with noopener. Main only ever opens a pending question's http(s) url.
   */
  "url:open": [{ id: string }, { opened: boolean; url: string }];
  "settings:get": [void, Settings];
  "settings:pauseNotifications": [{ minutes: number | null }, Settings];
  "settings:resumeNotifications": [void, Settings];
  "settings:startAtLogin": [{ enabled: boolean }, Settings];
  /** Returns the new token once so the person can copy it; it is never readable again. */
  "gateway:rotateToken": [void, { token: string }];
  "secrets:set": [{ name: string; value: string }, Settings];
  "secrets:delete": [{ name: string }, Settings];
}

/** Event channels: channel → payload. */
export interface EventMap extends RulesEventMap, DevicesEventMap {
  "inbox:event": InboxEvent;
  "servers:changed": ServerView[];
  "settings:changed": Settings;
  /** Main asks the page to show one question (tray menu or notification click). */
  "inbox:focus": { id: string };
  /** A followed task started, changed or ended: the Tasks view's list again (at most every SERVERS_EVENT_INTERVAL_MS). */
  "tasks:changed": TasksList;
}

export type InvokeChannel = keyof InvokeMap;
export type EventChannel = keyof EventMap;
export type InvokeArg<C extends InvokeChannel> = InvokeMap[C][0];
export type InvokeResult<C extends InvokeChannel> = InvokeMap[C][1];

/**
 * Main's side of an invoke map (channel → [argument, result]): one handler per channel, which
 * takes the argument as it arrived — untrusted, so typed unknown — and resolves to the result.
 * Each feature serves its own map; `HandlerMap<InvokeMap>` is all of them merged.
 */
export type HandlerMap<M extends { [C in keyof M]: [unknown, unknown] }> = { [C in keyof M]: (arg: unknown) => Promise<M[C][1]> };

export const INVOKE_CHANNELS = [
  "inbox:list",
  "inbox:answer",
  "servers:list",
  "tools:run",
  "forms:check",
  "tools:check",
  "url:open",
  "settings:get",
  "settings:pauseNotifications",
  "settings:resumeNotifications",
  "settings:startAtLogin",
  "gateway:rotateToken",
  "secrets:set",
  "secrets:delete",
  ...HISTORY_INVOKE_CHANNELS,
  ...SERVER_MANAGEMENT_CHANNELS,
  ...RULES_INVOKE_CHANNELS,
  ...AGENTS_INVOKE_CHANNELS,
  ...TASKS_INVOKE_CHANNELS,
  ...REACH_INVOKE_CHANNELS,
  ...DEVICES_INVOKE_CHANNELS,
] as const satisfies readonly InvokeChannel[];

export const EVENT_CHANNELS = [
  "inbox:event",
  "servers:changed",
  "settings:changed",
  "inbox:focus",
  "tasks:changed",
  ...RULES_EVENT_CHANNELS,
  ...DEVICES_EVENT_CHANNELS,
] as const satisfies readonly EventChannel[];

/** Every invoke resolves to an envelope; errors never throw across the boundary. */
export type Envelope<T> = { ok: true; value: T } | { ok: false; error: { code: string; message: string; details?: string[] } };

/** What the page sees, whichever transport carries it. */
export type CompanionApi = {
  [C in InvokeChannel]: (arg: InvokeArg<C>) => Promise<Envelope<InvokeResult<C>>>;
} & {
  on<E extends EventChannel>(event: E, listener: (payload: EventMap[E]) => void): () => void;
};

/** Browser mode: the page talks to main over one WebSocket at `/ws` (authenticated like the page). */
export type WsClientMessage = { t: "invoke"; id: number; channel: InvokeChannel; arg: unknown };
export type WsServerMessage =
  | { t: "result"; id: number; envelope: Envelope<unknown> }
  | { t: "event"; channel: EventChannel; payload: unknown };
