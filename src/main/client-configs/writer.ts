// One writer per client: where its config lives, what the companion's entry looks like there, and
// the two pure edits `connect(text)` and `disconnect(text)`. Files are read, backed up and written by
// the caller (agents.ts); writers only turn text into text.
import { ENTRY_NAME, type ConnectOptions, type Via } from "./connect-form";
import { EditError, removeCandidates, setAt, valueAt, type JsonPath } from "./json-edit";
import type { ClientId, Machine } from "./types";

export interface ClientWriter {
  id: ClientId;
  label: string;
  /** The documentation page the entry's shape and the token's handling were taken from. */
  docs: string;
  /** The form used unless the person asks for the other. */
  defaultVia: Via;
  /**
   * How an HTTP entry carries the gateway token here: `env` a variable the client expands, `input`
   * VS Code's password prompt, `literal` only the token itself, `none` no remote servers in this file.
   */
  http: "env" | "input" | "literal" | "none";
  /** Folders whose presence says the client is installed. */
  homes(machine: Machine): string[];
  /** The files the entry may go to, best first; the first that exists is used, else the first. */
  files(machine: Machine, project?: string): string[];
  connect(text: string, options: ConnectOptions): string;
  /** Ways of undoing `connect`, most likely first (see `undo`). */
  disconnect(text: string): string[];
}

/**
 * The disconnected text: of the candidate removals, the one `redo` turns back into `text` exactly —
 * so connect then disconnect gives the original bytes — else the first (the most conservative).
 */
export function undo(text: string, candidates: string[], redo: (candidate: string) => string): string {
  if (candidates.length === 0) return text;
  for (const candidate of candidates) {
    try {
      if (redo(candidate) === text) return candidate;
    } catch {
      // a candidate the writer cannot connect again is simply not the inverse
    }
  }
  return candidates[0];
}

const isEmpty = (v: unknown) => (Array.isArray(v) ? v.length === 0 : typeof v === "object" && v !== null && Object.keys(v).length === 0);

/** Each candidate, and each with the containers on `path` that became empty removed too. */
export function pruneEmpty(candidates: string[], path: JsonPath): string[] {
  const out: string[] = [];
  for (const candidate of candidates) {
    out.push(candidate);
    let current = [candidate];
    for (let depth = path.length; depth >= 1; depth--) {
      const prefix = path.slice(0, depth);
      const next: string[] = [];
      for (const c of current) {
        if (!isEmpty(valueAt(c, prefix))) continue;
        next.push(...removeCandidates(c, prefix));
      }
      if (next.length === 0) break;
      out.push(...next);
      current = next;
    }
  }
  return [...new Set(out)];
}

/** Removal candidates for `path`, then the same with the emptied containers above it removed. */
function removeWithParents(text: string, path: JsonPath): string[] {
  return pruneEmpty(removeCandidates(text, path), path.slice(0, -1));
}

export interface JsonWriterSpec extends Omit<ClientWriter, "connect" | "disconnect"> {
  /** Where the servers map is, given the parsed document (opencode's V1 and V2 differ). */
  servers(doc: unknown): JsonPath;
  /** The entry for this client, in the chosen form. */
  entry(options: ConnectOptions): unknown;
  /** Anything else an entry needs next to it (VS Code's `inputs`). */
  also?: { connect(text: string, options: ConnectOptions): string; disconnect(text: string): string[] };
}

function parsed(text: string): unknown {
  return text.trim() === "" ? {} : valueAt(text, []);
}

/** A writer for the clients whose config is JSON or JSONC with a map of named servers. */
export function jsonWriter(spec: JsonWriterSpec): ClientWriter {
  const writer: ClientWriter = {
    ...spec,
    connect(text, options) {
      if (options.via === "http" && spec.http === "none") throw new EditError(`${spec.label}'s config file holds only local (stdio) servers`);
      const path = [...spec.servers(parsed(text)), ENTRY_NAME];
      const withEntry = setAt(text, path, spec.entry(options));
      return spec.also ? spec.also.connect(withEntry, options) : withEntry;
    },
    disconnect(text) {
      const path = [...spec.servers(parsed(text)), ENTRY_NAME];
      const withoutEntry = valueAt(text, path) === undefined ? [text] : removeWithParents(text, path);
      if (!spec.also) return withoutEntry;
      return [...new Set(withoutEntry.flatMap((t) => spec.also!.disconnect(t)))];
    },
  };
  return writer;
}
