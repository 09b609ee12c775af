// Slack, Discord and Matrix: one message each, with the notice's title and body and a link to the
// question on the paired page. Nothing in them answers: the link opens the page, which asks again.
import { randomUUID } from "node:crypto";
import type { Notice } from "./types";
import { send } from "./outbound";

const JSON_TYPE = { "content-type": "application/json; charset=utf-8" };

/** Slack's mrkdwn: &, < and > are its control characters and must be escaped. */
export function slackEscape(text: string): string {
  return text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");
}

export function slackPayload(notice: Notice): Record<string, unknown> {
  const title = slackEscape(notice.title);
  const body = slackEscape(notice.body);
  const blocks: unknown[] = [{ type: "section", text: { type: "mrkdwn", text: `*${title}*\n${body}` } }];
  if (notice.url) {
    blocks.push({ type: "actions", elements: [{ type: "button", text: { type: "plain_text", text: "Open the question" }, url: notice.url }] });
  }
  // `text` is what the notification and clients without blocks show.
  return { text: notice.url ? `${title}: ${body} <${notice.url}|Open the question>` : `${title}: ${body}`, blocks };
}

/** Discord markdown, and mentions: a prompt must not @everyone or format itself. */
export function discordEscape(text: string): string {
  return text.replace(/([\\*_~`|>#[\]()-])/g, "\\$1").replace(/@/g, "@\u200b");
}

export function discordPayload(notice: Notice): Record<string, unknown> {
  const embed: Record<string, unknown> = { title: notice.title.slice(0, 256), description: discordEscape(notice.body).slice(0, 4096) };
  if (notice.url) embed.url = notice.url;
  return { content: discordEscape(notice.title).slice(0, 2000), embeds: [embed], allowed_mentions: { parse: [] } };
}

function htmlEscape(text: string): string {
  return text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;");
}

export function matrixPayload(notice: Notice): Record<string, unknown> {
  const plain = `${notice.title}\n${notice.body}${notice.url ? `\n${notice.url}` : ""}`;
  const html = `<strong>${htmlEscape(notice.title)}</strong><br>${htmlEscape(notice.body)}${notice.url ? `<br><a href="${htmlEscape(notice.url)}">Open the question</a>` : ""}`;
  return { msgtype: "m.text", body: plain, format: "org.matrix.custom.html", formatted_body: html };
}

/** The client-server API's send endpoint; the transaction id makes a retried PUT one message. */
export function matrixUrl(homeserver: string, roomId: string, txnId: string = randomUUID()): string {
  return `${homeserver.replace(/\/+$/, "")}/_matrix/client/v3/rooms/${encodeURIComponent(roomId)}/send/m.room.message/${encodeURIComponent(txnId)}`;
}

export async function sendSlack(url: string, notice: Notice): Promise<void> {
  await send({ url, headers: JSON_TYPE, body: JSON.stringify(slackPayload(notice)) });
}

export async function sendDiscord(url: string, notice: Notice): Promise<void> {
  await send({ url, headers: JSON_TYPE, body: JSON.stringify(discordPayload(notice)) });
}

export async function sendMatrix(homeserver: string, roomId: string, token: string, notice: Notice): Promise<void> {
  await send({ url: matrixUrl(homeserver, roomId), method: "PUT", headers: { ...JSON_TYPE, authorization: `Bearer ${token}` }, body: JSON.stringify(matrixPayload(notice)) });
}
