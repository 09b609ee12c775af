// ntfy: one POST to the topic's URL, the message as the body and the rest as headers (Title,
// Priority, Tags, Click, Actions). Approvals carry Allow and Deny as http actions: each POSTs a
// single-use signed link to the device listener (signed-actions.ts), the only link sent anywhere
// that answers by itself.
import type { Notice } from "./types";
import { send } from "./outbound";

export interface NtfyActions {
  allow: string;
  deny: string;
}

/** A header value ntfy reads back whole: ASCII as is, anything else as an RFC 2047 encoded word. */
export function headerText(value: string): string {
  // eslint-disable-next-line no-control-regex
  return /^[\x20-\x7e]*$/.test(value) ? value : `=?UTF-8?B?${Buffer.from(value, "utf8").toString("base64")}?=`;
}

/** ntfy's action list syntax: `action, label, url, key=value; …`; our URLs carry no comma or semicolon. */
function actionList(notice: Notice, actions: NtfyActions | undefined): string | undefined {
  const list: string[] = [];
  if (actions) {
    list.push(`http, Allow, ${actions.allow}, method=POST, clear=true`);
    list.push(`http, Deny, ${actions.deny}, method=POST, clear=true`);
  }
  if (notice.url) list.push(`view, Open, ${notice.url}`);
  return list.length ? list.join("; ") : undefined;
}

export function ntfyRequest(url: string, token: string | undefined, notice: Notice, actions?: NtfyActions): { url: string; headers: Record<string, string>; body: string } {
  const headers: Record<string, string> = {
    "content-type": "text/plain; charset=utf-8",
    Title: headerText(notice.title),
    // 4 is "high" (a sound and a pop-over on Android); approvals hold an agent up, so 5.
    Priority: notice.approval ? "5" : "4",
    Tags: notice.approval ? "lock" : "question",
  };
  if (notice.url) headers.Click = notice.url;
  const list = actionList(notice, actions);
  if (list) headers.Actions = list;
  if (token) headers.Authorization = `Bearer ${token}`;
  return { url, headers, body: notice.url ? notice.body : `${notice.body}\nAnswer it in the companion.` };
}

export async function sendNtfy(url: string, token: string | undefined, notice: Notice, actions?: NtfyActions): Promise<void> {
  await send(ntfyRequest(url, token, notice, actions));
}
