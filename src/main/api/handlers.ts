// The one handler map behind every transport (Electron IPC and the browser WebSocket). Each
// handler takes untrusted input, checks it, and either returns the contract's result or throws
// an error the transport wraps into an Envelope.
import type { FormCheck, InvokeChannel, InvokeResult, ServerManagementInvokeMap } from "../../shared/contract";
import type { ServerView } from "../../shared/types";
import type { AgentsInvokeMap } from "../../shared/agents";
import type { HistoryInvokeMap } from "../../shared/history";
import type { RulesInvokeMap } from "../../shared/rules";
import type { Answer, ToolRunResult } from "../../shared/types";
import { checkFormAnswer, checkToolArguments } from "../../forms/check-answer";
import { InboxError, type Inbox } from "../inbox";
import { outputForPage } from "../mcp/result";
import type { McpSource, McpTool } from "../mcp/types";
import { ArgumentError, HandlerError } from "../rpc/envelope";
import { GATEWAY_TOKEN_SECRET, type SecretStore } from "./secret-store";
import { SECRET_NAME } from "../secrets";
import type { Platform, SettingsState } from "./settings-state";
import { booleanField, noArg, objectArg, stringField } from "../rpc/validate";
import { isPlainObject } from "../../shared/unknown-value";

export type Handlers = { [C in InvokeChannel]: (arg: unknown) => Promise<InvokeResult<C>> };
/** The channels this map serves; history's and server management's come from their own modules (core merges them). */
export type CoreHandlers = Omit<Handlers, keyof HistoryInvokeMap | keyof RulesInvokeMap | keyof ServerManagementInvokeMap | keyof AgentsInvokeMap>;

export interface HandlerDeps {
  inbox: Inbox;
  source: () => McpSource;
  servers: () => ServerView[];
  settings: SettingsState;
  platform: Platform;
  secrets: SecretStore;
  rotateToken: () => Promise<string>;
}

const MAX_SECRET_BYTES = 64 * 1024;
const MAX_PAUSE_MINUTES = 7 * 24 * 60;

function answerArg(arg: unknown): Answer {
  const input = objectArg("inbox:answer", arg);
  const id = stringField("inbox:answer", input, "id", 512);
  const ok = booleanField("inbox:answer", input, "ok");
  const answer: Answer = { id, ok };
  if (input.data !== undefined) {
    if (!isPlainObject(input.data)) throw new ArgumentError('inbox:answer: "data" must be an object.');
    answer.data = input.data;
  }
  if (input.reason !== undefined) {
    if (typeof input.reason !== "string") throw new ArgumentError('inbox:answer: "reason" must be a string.');
    if (ok) throw new ArgumentError('inbox:answer: "reason" only goes with ok: false.');
    answer.reason = input.reason;
  }
  return answer;
}

/** `key` of `input` as a plain object; absent means {} (nothing filled in yet). */
function objectField(channel: string, input: Record<string, unknown>, key: string): Record<string, unknown> {
  const value = input[key] ?? {};
  if (!isPlainObject(value)) throw new ArgumentError(`${channel}: "${key}" must be an object.`);
  return value;
}

/** The page's view of a check: what it may show, not the prepared data (main prepares on answer). */
function formCheck(schema: unknown, data: Record<string, unknown>, check = checkFormAnswer): FormCheck {
  const { ok, errors, fieldErrors } = check(schema, data);
  return { ok, errors, fieldErrors };
}

function toolNamed(source: McpSource, name: string): McpTool {
  const tool = source.tools.find((t) => t.name === name);
  if (!tool) throw new HandlerError("unknown-tool", `No connected server offers a tool named "${name}".`);
  return tool;
}

/** The url of a pending authorization question, only when it is http(s). */
export function openableUrl(inbox: Inbox, id: string): string {
  const entry = inbox.get(id);
  if (!entry) throw new HandlerError("unknown-id", `No pending question has id "${id}": it was answered, withdrawn, or never asked.`);
  if (entry.request.kind !== "authorization" || typeof entry.request.url !== "string") {
    throw new HandlerError("not-a-url-question", `Question "${id}" does not ask to open a URL.`);
  }
  let url: URL;
  try {
    url = new URL(entry.request.url);
  } catch {
    throw new HandlerError("bad-url", `Question "${id}" carries a URL that does not parse; it will not be opened.`);
  }
  if (url.protocol !== "https:" && url.protocol !== "http:") {
    throw new HandlerError("bad-url", `Only http(s) URLs are opened, not "${url.protocol}".`);
  }
  return entry.request.url;
}

export function createHandlers(deps: HandlerDeps): CoreHandlers {
  const { inbox, settings, secrets } = deps;

  return {
    "inbox:list": async (arg) => {
      noArg("inbox:list", arg);
      return inbox.list();
    },

    "inbox:answer": async (arg) => {
      const answer = answerArg(arg);
      return inbox.answer(answer.id, answer);
    },

    "servers:list": async (arg) => {
      noArg("servers:list", arg);
      return deps.servers();
    },

    "tools:run": async (arg): Promise<ToolRunResult> => {
      const input = objectArg("tools:run", arg);
      const name = stringField("tools:run", input, "tool", 512);
      const args = input.args ?? {};
      if (!isPlainObject(args)) throw new ArgumentError('tools:run: "args" must be an object.');
      const result = await toolNamed(deps.source(), name).execute(args);
      // The page gets a bounded text; the gateway (not this handler) forwards results whole.
      return { output: outputForPage(result.output), isError: result.isError };
    },

    // The page's inline errors come from here, so they are exactly what inbox.answer will enforce.
    "forms:check": async (arg) => {
      const input = objectArg("forms:check", arg);
      const id = stringField("forms:check", input, "id", 512);
      const data = objectField("forms:check", input, "data");
      const entry = inbox.get(id);
      if (!entry) throw new InboxError("unknown-id", `No pending question has id "${id}": it was answered, withdrawn, or never asked.`);
      const schema = entry.request.kind === "input" ? entry.request.data?.schema : undefined;
      if (schema === undefined) throw new HandlerError("not-a-form-question", `Question "${id}" has no form to check.`);
      return formCheck(schema, data);
    },

    "tools:check": async (arg) => {
      const input = objectArg("tools:check", arg);
      const name = stringField("tools:check", input, "tool", 512);
      const args = objectField("tools:check", input, "args");
      return formCheck(toolNamed(deps.source(), name).inputSchema, args, checkToolArguments);
    },

    "url:open": async (arg) => {
      const input = objectArg("url:open", arg);
      const id = stringField("url:open", input, "id", 512);
      const url = openableUrl(inbox, id);
      const opening = deps.platform.openExternal(url);
      if (opening === null) return { opened: false, url };
      await opening;
      return { opened: true, url };
    },

    "settings:get": async (arg) => {
      noArg("settings:get", arg);
      return settings.get();
    },

    "settings:pauseNotifications": async (arg) => {
      const input = objectArg("settings:pauseNotifications", arg);
      const minutes = input.minutes;
      if (minutes !== null && (typeof minutes !== "number" || !Number.isFinite(minutes) || minutes <= 0 || minutes > MAX_PAUSE_MINUTES)) {
        throw new ArgumentError(`settings:pauseNotifications needs "minutes" between 0 and ${MAX_PAUSE_MINUTES}, or null (until resumed).`);
      }
      return settings.pause(minutes);
    },

    "settings:resumeNotifications": async (arg) => {
      noArg("settings:resumeNotifications", arg);
      return settings.resume();
    },

    "settings:startAtLogin": async (arg) => {
      const input = objectArg("settings:startAtLogin", arg);
      return settings.setStartAtLogin(booleanField("settings:startAtLogin", input, "enabled"));
    },

    "gateway:rotateToken": async (arg) => {
      noArg("gateway:rotateToken", arg);
      const token = await deps.rotateToken();
      settings.changed();
      return { token };
    },

    "secrets:set": async (arg) => {
      const input = objectArg("secrets:set", arg);
      const name = stringField("secrets:set", input, "name", 128);
      if (!SECRET_NAME.test(name)) throw new ArgumentError("A secret's name uses letters, digits, '_', '-' and '.' only.");
      if (name === GATEWAY_TOKEN_SECRET) throw new ArgumentError(`"${name}" is the gateway token; rotate it instead.`);
      const value = input.value;
      if (typeof value !== "string" || value === "") throw new ArgumentError('secrets:set needs "value" as a non-empty string.');
      if (Buffer.byteLength(value) > MAX_SECRET_BYTES) throw new ArgumentError("A secret's value is at most 64 KiB.");
      await secrets.set(name, value);
      return settings.refreshSecretNames();
    },

    "secrets:delete": async (arg) => {
      const input = objectArg("secrets:delete", arg);
      const name = stringField("secrets:delete", input, "name", 128);
      if (name === GATEWAY_TOKEN_SECRET) throw new ArgumentError(`"${name}" is the gateway token; rotate it instead.`);
      await secrets.delete(name);
      return settings.refreshSecretNames();
    },
  };
}
