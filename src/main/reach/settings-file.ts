// Where reach's settings live: reach.json in the data folder (base/data-dir.ts), beside the rules,
// written whole through the one safe writer. Only what is not secret goes there: topic URLs, the
// Matrix room, the mail server, timings. Tokens, webhook URLs and the mail password are in the
// keychain (secret-names.ts). Whatever is read back is checked like what Settings saves.
import { readFileSync, statSync } from "node:fs";
import path from "node:path";
import { dataDir } from "../base/data-dir";
import { trustProblem } from "../base/file-trust";
import { writeFileSafeSync } from "../base/safe-write";
import { isPlainObject } from "../../shared/unknown-value";
import { REACH_DETAILS, type EscalationTimes, type QuietHours, type ReachDetail } from "../../shared/reach";
import { urlProblem } from "./outbound";

export const REACH_FILE = "reach.json";
const MAX_FILE_BYTES = 64 * 1024;
/** Longest wait before passing a question on: a day. */
const MAX_MINUTES = 24 * 60;

export interface ReachSettings {
  detail: ReachDetail;
  escalation: EscalationTimes;
  quietHours?: QuietHours;
  holdAtDesk: boolean;
  ntfy: { enabled: boolean; url: string };
  slack: { enabled: boolean };
  discord: { enabled: boolean };
  matrix: { enabled: boolean; homeserver: string; roomId: string };
  email: { enabled: boolean; host: string; port: number; secure: boolean; user: string; from: string; to: string };
}

export const DEFAULT_SETTINGS: ReachSettings = {
  detail: "full",
  escalation: { devicesAfter: 2, approvalDevicesAfter: 1, channelsAfter: 3 },
  holdAtDesk: true,
  ntfy: { enabled: false, url: "" },
  slack: { enabled: false },
  discord: { enabled: false },
  matrix: { enabled: false, homeserver: "", roomId: "" },
  email: { enabled: false, host: "", port: 587, secure: false, user: "", from: "", to: "" },
};

export function defaultReachPath(env: NodeJS.ProcessEnv = process.env): string {
  if (env.TOOLNEXUS_REACH_FILE) return path.resolve(env.TOOLNEXUS_REACH_FILE);
  return path.join(dataDir(env), REACH_FILE);
}

/** Where each refusal points in the save argument (`ntfy.url`), for the page to mark that field. */
const FIELD_PATHS: Record<string, string> = {
  "Devices after": "escalation.devicesAfter",
  "Approvals after": "escalation.approvalDevicesAfter",
  "Channels after": "escalation.channelsAfter",
  "Quiet hours": "quietHours",
  "Quiet hours from": "quietHours",
  "Quiet hours until": "quietHours",
  "ntfy topic URL": "ntfy.url",
  "Matrix homeserver": "matrix.homeserver",
  "Matrix room": "matrix.roomId",
  "Mail server": "email.host",
  "Email port": "email.port",
  "Mail user name": "email.user",
  From: "email.from",
  To: "email.to",
};

/** A settings value refused: the message in words, and the field's path in the save argument. */
export class SettingsProblem extends Error {
  readonly path: string;
  constructor(field: string, message: string) {
    super(message);
    this.name = "SettingsProblem";
    this.path = FIELD_PATHS[field] ?? field;
  }
}

const HHMM = /^([01]\d|2[0-3]):[0-5]\d$/;
const EMAIL = /^[^\s@<>",;]{1,64}@[^\s@<>",;]{1,255}$/;
const ROOM = /^[!#][^\s:]{1,255}:[^\s]{1,255}$/;
const HOST = /^[A-Za-z0-9.-]{1,253}$|^\[?[0-9A-Fa-f:.]{2,45}\]?$/;

function object(value: unknown, field: string): Record<string, unknown> {
  if (!isPlainObject(value)) throw new SettingsProblem(field, `${field} is missing.`);
  return value;
}

function bool(o: Record<string, unknown>, key: string, field: string): boolean {
  if (typeof o[key] !== "boolean") throw new SettingsProblem(field, `${field} must be on or off.`);
  return o[key] as boolean;
}

function text(o: Record<string, unknown>, key: string, field: string, max = 512): string {
  const v = o[key] ?? "";
  if (typeof v !== "string" || v.length > max) throw new SettingsProblem(field, `${field} must be text of at most ${max} characters.`);
  return v.trim();
}

function minutes(o: Record<string, unknown>, key: string, field: string): number {
  const v = o[key];
  if (typeof v !== "number" || !Number.isFinite(v) || v < 0 || v > MAX_MINUTES) throw new SettingsProblem(field, `${field} must be a number of minutes from 0 to ${MAX_MINUTES}.`);
  return Math.round(v * 10) / 10;
}

/** An enabled channel needs what it sends to; a disabled one may be half filled in. */
function need(enabled: boolean, problem: string | undefined, field: string): void {
  if (enabled && problem) throw new SettingsProblem(field, problem);
}

/** The settings, checked: what Settings saves and what the file holds. Throws a SettingsProblem. */
export function checkSettings(input: unknown): ReachSettings {
  const o = object(input, "Settings");
  const detail = o.detail;
  if (!REACH_DETAILS.includes(detail as ReachDetail)) throw new SettingsProblem("What notifications say", "What notifications say is not one of the choices.");
  const e = object(o.escalation, "Escalation");
  const escalation = { devicesAfter: minutes(e, "devicesAfter", "Devices after"), approvalDevicesAfter: minutes(e, "approvalDevicesAfter", "Approvals after"), channelsAfter: minutes(e, "channelsAfter", "Channels after") };
  let quietHours: QuietHours | undefined;
  if (o.quietHours !== undefined && o.quietHours !== null) {
    const q = object(o.quietHours, "Quiet hours");
    const start = text(q, "start", "Quiet hours from", 5);
    const end = text(q, "end", "Quiet hours until", 5);
    if (!HHMM.test(start) || !HHMM.test(end)) throw new SettingsProblem("Quiet hours", "Quiet hours are two times as HH:MM.");
    if (start !== end) quietHours = { start, end };
  }
  const n = object(o.ntfy, "ntfy");
  const ntfy = { enabled: bool(n, "enabled", "ntfy"), url: text(n, "url", "ntfy topic URL", 2048) };
  need(ntfy.enabled, ntfy.url ? urlProblem(ntfy.url, "The ntfy topic URL") : "ntfy needs a topic URL.", "ntfy topic URL");
  if (ntfy.url && !urlProblem(ntfy.url, "") && new URL(ntfy.url).pathname.replace(/\/+$/, "") === "") need(ntfy.enabled, "The ntfy URL needs a topic after the server, e.g. https://ntfy.sh/my-topic.", "ntfy topic URL");
  const m = object(o.matrix, "Matrix");
  const matrix = { enabled: bool(m, "enabled", "Matrix"), homeserver: text(m, "homeserver", "Matrix homeserver", 2048), roomId: text(m, "roomId", "Matrix room", 512) };
  need(matrix.enabled, matrix.homeserver ? urlProblem(matrix.homeserver, "The Matrix homeserver") : "Matrix needs a homeserver URL.", "Matrix homeserver");
  need(matrix.enabled, ROOM.test(matrix.roomId) ? undefined : "The Matrix room is an id such as !abc:example.org.", "Matrix room");
  const em = object(o.email, "Email");
  const port = em.port;
  if (typeof port !== "number" || !Number.isInteger(port) || port < 1 || port > 65535) throw new SettingsProblem("Email port", "The mail server's port is a number from 1 to 65535.");
  const email = { enabled: bool(em, "enabled", "Email"), host: text(em, "host", "Mail server", 253), port, secure: bool(em, "secure", "TLS from the start"), user: text(em, "user", "Mail user name", 256), from: text(em, "from", "From", 320), to: text(em, "to", "To", 320) };
  need(email.enabled, HOST.test(email.host) ? undefined : "Email needs the mail server's host name.", "Mail server");
  need(email.enabled, EMAIL.test(email.from) ? undefined : "From is one address such as companion@example.org.", "From");
  need(email.enabled, EMAIL.test(email.to) ? undefined : "To is one address such as you@example.org.", "To");
  const slack = { enabled: bool(object(o.slack, "Slack"), "enabled", "Slack") };
  const discord = { enabled: bool(object(o.discord, "Discord"), "enabled", "Discord") };
  return { detail: detail as ReachDetail, escalation, ...(quietHours ? { quietHours } : {}), holdAtDesk: bool(o, "holdAtDesk", "Hold while at the desk"), ntfy, slack, discord, matrix, email };
}

/** The file's settings, the defaults when there is none, or the defaults and why the file was not used. */
export function readReachFile(file: string): { settings: ReachSettings; problem?: string } {
  try {
    statSync(file);
  } catch {
    return { settings: DEFAULT_SETTINGS };
  }
  try {
    const untrusted = trustProblem(file);
    if (untrusted) return { settings: DEFAULT_SETTINGS, problem: untrusted };
    if (statSync(file).size > MAX_FILE_BYTES) return { settings: DEFAULT_SETTINGS, problem: `${file} is larger than ${MAX_FILE_BYTES} bytes` };
    const parsed = JSON.parse(readFileSync(file, "utf8")) as unknown;
    return { settings: checkSettings(isPlainObject(parsed) ? parsed.settings : undefined) };
  } catch (error) {
    return { settings: DEFAULT_SETTINGS, problem: `${file} was not used: ${(error as Error).message}` };
  }
}

export function writeReachFile(file: string, settings: ReachSettings): void {
  writeFileSafeSync(file, `${JSON.stringify({ version: 1, settings }, null, 2)}\n`, { mode: 0o600 });
}
