// The Inbox view's channels: list the pending questions, answer one, check a form's values as
// the person types them, and open an authorization question's link. Arguments are untrusted page
// input: each is checked before the Inbox sees it.
import type { HandlerMap, InvokeMap } from "../../shared/contract";
import type { Answer } from "../../shared/types";
import { checkFormAnswer, pageCheck } from "../../forms/check-answer";
import { ArgumentError, HandlerError } from "../rpc/envelope";
import { defineHandlers } from "../rpc/handlers";
import { booleanField, noArg, objectArg, objectField, stringField } from "../rpc/validate";
import { isPlainObject } from "../../shared/unknown-value";
import { unknownQuestion } from "./errors";
import type { Inbox } from "./inbox";

export type InboxChannel = "inbox:list" | "inbox:answer" | "forms:check" | "url:open";
export type InboxHandlers = HandlerMap<Pick<InvokeMap, InboxChannel>>;

export interface InboxHandlerDeps {
  inbox: Inbox;
  /** Opens an http(s) url in the system browser; null when the page opens it itself (browser mode). */
  openExternal(url: string): Promise<void> | null;
}

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

/** The url of a pending authorization question, only when it is http(s). */
function openableUrl(inbox: Inbox, id: string): string {
  const entry = inbox.get(id);
  if (!entry) throw unknownQuestion(id);
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

export function createInboxHandlers({ inbox, openExternal }: InboxHandlerDeps): InboxHandlers {
  return defineHandlers<Pick<InvokeMap, InboxChannel>>({
    "inbox:list": async (arg) => {
      noArg("inbox:list", arg);
      return inbox.list();
    },

    "inbox:answer": async (arg) => {
      const answer = answerArg(arg);
      return inbox.answer(answer.id, answer);
    },

    // The page's inline errors come from here, so they are exactly what inbox.answer will enforce.
    "forms:check": async (arg) => {
      const input = objectArg("forms:check", arg);
      const id = stringField("forms:check", input, "id", 512);
      const data = objectField("forms:check", input, "data");
      const entry = inbox.get(id);
      if (!entry) throw unknownQuestion(id);
      const schema = entry.request.kind === "input" ? entry.request.data?.schema : undefined;
      if (schema === undefined) throw new HandlerError("not-a-form-question", `Question "${id}" has no form to check.`);
      return pageCheck(checkFormAnswer(schema, data));
    },

    "url:open": async (arg) => {
      const input = objectArg("url:open", arg);
      const id = stringField("url:open", input, "id", 512);
      const url = openableUrl(inbox, id);
      const opening = openExternal(url);
      if (opening === null) return { opened: false, url };
      await opening;
      return { opened: true, url };
    },
  });
}
