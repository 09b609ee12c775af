// Secrets written inline in another app's entry (`"GITHUB_PERSONAL_ACCESS_TOKEN": "ghp_…"` in
// Cursor's file, `"Authorization": "Bearer sk-…"`): import flags them by the one pair of checks
// (forms/secret-shape.ts) and, unless the person keeps them literal, moves each value into the
// keychain and writes `${secret:NAME}` in its place, so the companion's own file holds none.
import { findReferences } from "../mcp/config/references";
import { isSecretPair } from "../../forms/secret-shape";
import { SECRET_NAME } from "../secrets/types";
import type { CompanionEntry } from "./types";

export interface LiteralSecret {
  field: "env" | "headers";
  key: string;
  /** The keychain name the value would be stored under: `${secret:<secret>}`. */
  secret: string;
}

/** `Bearer x`, `Basic x`, `token x`: the scheme stays in the header, the credential moves. */
const SCHEME = /^(Bearer|Basic|token|Token)\s+(\S.*)$/s;

function isLiteralSecret(key: string, value: string): boolean {
  if (value.trim() === "" || findReferences(value).length > 0) return false;
  return isSecretPair(key, value);
}

/** A keychain name for one value: `<server>.<key>`, reduced to what SECRET_NAME and `${secret:…}` take. */
function secretNameFor(server: string, key: string): string {
  let name = `${server}.${key}`.replace(/[^A-Za-z0-9_.-]/g, "_").slice(0, 128);
  if (!/^[A-Za-z_]/.test(name)) name = `s${name}`.slice(0, 128);
  return SECRET_NAME.test(name) ? name : "imported-secret";
}

/** Every env or header value of `entry` that is a literal credential (names only, never values). */
export function literalSecrets(server: string, entry: CompanionEntry): LiteralSecret[] {
  const out: LiteralSecret[] = [];
  for (const field of ["env", "headers"] as const) {
    for (const [key, value] of Object.entries(entry[field] ?? {})) {
      if (typeof value === "string" && isLiteralSecret(key, value)) out.push({ field, key, secret: secretNameFor(server, key) });
    }
  }
  return out;
}

/**
 * The entry with each literal replaced by its `${secret:NAME}`, and the values to store first.
 * A header keeps its scheme word (`Bearer ${secret:NAME}`).
 */
export function moveLiteralSecrets(entry: CompanionEntry, literals: readonly LiteralSecret[]): { entry: CompanionEntry; store: Map<string, string> } {
  const store = new Map<string, string>();
  const out: CompanionEntry = { ...entry, ...(entry.env ? { env: { ...entry.env } } : {}), ...(entry.headers ? { headers: { ...entry.headers } } : {}) };
  for (const literal of literals) {
    const map = out[literal.field];
    const value = map?.[literal.key];
    if (!map || value === undefined) continue;
    const scheme = literal.field === "headers" ? SCHEME.exec(value) : null;
    store.set(literal.secret, scheme ? scheme[2] : value);
    map[literal.key] = scheme ? `${scheme[1]} \${secret:${literal.secret}}` : `\${secret:${literal.secret}}`;
  }
  return { entry: out, store };
}
