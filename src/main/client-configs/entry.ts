// Turns one client's server entry (already pulled apart by its reader) into the companion's
// config shape, or into a skipped entry with the reason. Shared by every reader, so every client
// gets the same checks: a command or a url, strings where strings belong, variables translated.
import { translate, UnresolvedVariable, type Dialect } from "./variables";
import { pathApi } from "./paths";
import type { CompanionEntry, FoundServer, InputMeta, Location, Machine, SkippedServer, Source } from "./types";
import { isPlainObject } from "../../shared/unknown-value";

/** A client's server, field by field, before translation. */
export interface Draft {
  command?: string;
  args?: string[];
  env?: Record<string, string>;
  envFile?: string;
  cwd?: string;
  url?: string;
  headers?: Record<string, string>;
  transport?: "http" | "streamable-http" | "sse";
  disabled?: boolean;
  timeout?: number;
  callTimeout?: number;
}

/** Thrown by the field readers below: the entry is skipped with this reason. */
export class NotImportable extends Error {}

export type Raw = Record<string, unknown>;

export function str(raw: Raw, key: string): string | undefined {
  const v = raw[key];
  if (v === undefined || v === null) return undefined;
  if (typeof v !== "string") throw new NotImportable(`\`${key}\` is not a string`);
  return v;
}

export function strList(raw: Raw, key: string): string[] | undefined {
  const v = raw[key];
  if (v === undefined || v === null) return undefined;
  if (!Array.isArray(v) || !v.every((a) => typeof a === "string" || typeof a === "number")) throw new NotImportable(`\`${key}\` is not a list of strings`);
  return v.map(String);
}

export function strMap(raw: Raw, key: string): Record<string, string> | undefined {
  const v = raw[key];
  if (v === undefined || v === null) return undefined;
  if (!isPlainObject(v)) throw new NotImportable(`\`${key}\` is not an object of strings`);
  const out: Record<string, string> = {};
  for (const [k, value] of Object.entries(v)) {
    if (typeof value !== "string" && typeof value !== "number" && typeof value !== "boolean") throw new NotImportable(`\`${key}.${k}\` is not a string`);
    out[k] = String(value);
  }
  return out;
}

export function positive(raw: Raw, key: string, scale = 1): number | undefined {
  const v = raw[key];
  if (v === undefined || v === null) return undefined;
  if (typeof v !== "number" || !Number.isFinite(v) || v <= 0) throw new NotImportable(`\`${key}\` is not a positive number`);
  return v * scale;
}

/** The common `mcpServers` entry (Claude, Cursor, Windsurf, Gemini CLI, VS Code): one reading for all. */
export function standardDraft(raw: Raw): Draft {
  const type = typeof raw.type === "string" ? raw.type.toLowerCase() : undefined;
  const urlKeys = (["url", "serverUrl", "httpUrl"] as const).filter((k) => raw[k] !== undefined);
  const url = urlKeys.length > 0 ? str(raw, urlKeys[0]) : undefined;
  let transport: Draft["transport"];
  if (type === "sse") transport = "sse";
  else if (type === "http" || type === "streamable-http" || type === "streamablehttp") transport = type === "http" ? "http" : "streamable-http";
  return {
    command: str(raw, "command"),
    args: strList(raw, "args"),
    env: strMap(raw, "env"),
    envFile: str(raw, "envFile"),
    cwd: str(raw, "cwd"),
    url,
    headers: strMap(raw, "headers"),
    transport,
    disabled: raw.disabled === true || raw.enabled === false,
  };
}

export interface FinishContext {
  machine: Machine;
  location: Location;
  client: Source["client"];
  dialect: Dialect;
  /** The file's VS Code `inputs`, by id. */
  inputs?: Map<string, InputMeta>;
  /** Scope when it differs from the file's (Claude Code's per-project servers in ~/.claude.json). */
  scope?: string;
  /** Folder the client starts the server in when it gives no `cwd` (a project's). */
  project?: string;
}

/** Builds the companion entry, or the reason this server cannot be imported. */
export function finish(name: string, draft: Draft, ctx: FinishContext): FoundServer | SkippedServer {
  const from: Source = { client: ctx.client, file: ctx.location.file, scope: ctx.scope ?? ctx.location.scope };
  const project = ctx.project ?? ctx.location.project;
  const usedInputs = new Set<string>();
  const tctx = { machine: ctx.machine, workspace: project, usedInputs, inputs: ctx.inputs ?? new Map() };
  const path = pathApi(ctx.machine);
  try {
    const t = (v: string) => translate(v, ctx.dialect, tctx);
    const tmap = (m: Record<string, string> | undefined) => (m ? Object.fromEntries(Object.entries(m).map(([k, v]) => [k, t(v)])) : undefined);
    const entry: CompanionEntry = {};
    if (draft.url !== undefined && draft.url !== "") {
      entry.type = draft.transport ?? "http";
      entry.url = t(draft.url);
      const headers = tmap(draft.headers);
      if (headers && Object.keys(headers).length > 0) entry.headers = headers;
    } else if (draft.command !== undefined && draft.command.trim() !== "") {
      entry.command = t(draft.command);
      entry.args = (draft.args ?? []).map(t);
      const env = tmap(draft.env);
      if (env && Object.keys(env).length > 0) entry.env = env;
      if (draft.envFile !== undefined) {
        const file = t(draft.envFile);
        entry.envFile = path.isAbsolute(file) ? file : path.resolve(project ?? path.dirname(ctx.location.file), file);
      }
      const cwd = draft.cwd === undefined ? project : t(draft.cwd);
      if (cwd !== undefined) {
        if (!path.isAbsolute(cwd) && !project) throw new NotImportable(`its cwd "${cwd}" is relative to wherever the client is started`);
        entry.cwd = path.isAbsolute(cwd) ? cwd : path.resolve(project!, cwd);
      }
    } else {
      throw new NotImportable("it has no `command` or `url`");
    }
    if (draft.timeout !== undefined) entry.timeout = draft.timeout;
    if (draft.callTimeout !== undefined) entry.callTimeout = draft.callTimeout;
    if (draft.disabled) entry.disabled = true;
    if (usedInputs.size > 0) {
      entry.inputs = [...usedInputs].map((id) => ({ id, ...(tctx.inputs.get(id) ?? {}) }));
    }
    return { name, entry, from };
  } catch (error) {
    if (error instanceof NotImportable || error instanceof UnresolvedVariable) return { name, reason: error.message, from };
    throw error;
  }
}

/** Reads a whole entry with `draft` (which may throw NotImportable) and finishes it. */
export function convert(name: string, raw: unknown, draft: (raw: Raw) => Draft, ctx: FinishContext): FoundServer | SkippedServer {
  const from: Source = { client: ctx.client, file: ctx.location.file, scope: ctx.scope ?? ctx.location.scope };
  if (!isPlainObject(raw)) return { name, reason: "not a server (not an object)", from };
  try {
    return finish(name, draft(raw), ctx);
  } catch (error) {
    if (error instanceof NotImportable) return { name, reason: error.message, from };
    throw error;
  }
}

export const isFound = (r: FoundServer | SkippedServer): r is FoundServer => "entry" in r;
