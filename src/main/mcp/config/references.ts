// References inside a config string, in the companion's own syntax and the spellings of the
// apps it reads: `${VAR}`, `${VAR:-default}`, `${env:VAR}`, `{env:VAR}`, `${secret:NAME}` and
// `${input:ID}`. Environment variables are put in when the config is read (envResolver, parse.ts);
// secrets and inputs are kept as written until connect time (expandEnvSecrets, expandHeaders).

/** A reference inside a config string, in the companion's own syntax. */
export type Reference =
  | { kind: "env"; name: string; fallback?: string }
  | { kind: "secret"; name: string }
  | { kind: "input"; id: string };

interface Found {
  ref: Reference;
  start: number;
  end: number;
}

/**
 * Every reference in `template`: `${VAR}`, `${VAR:-default}`, `${env:VAR}` and `{env:VAR}` (the
 * spellings of VS Code/Cursor and opencode, accepted so their files work as they are),
 * `${secret:NAME}`, and `${input:ID}` (VS Code's prompt, kept until it is answered). A `${…}`
 * that is none of these is left as text.
 */
export function findReferences(template: string): Found[] {
  const out: Found[] = [];
  for (const m of template.matchAll(/\$\{([^{}]*)\}|\{env:([A-Za-z_][A-Za-z0-9_]*)\}/g)) {
    const start = m.index;
    const end = start + m[0].length;
    if (m[2] !== undefined) {
      out.push({ ref: { kind: "env", name: m[2] }, start, end });
      continue;
    }
    const inner = m[1];
    let found: RegExpExecArray | null;
    if ((found = /^(?:env:)?([A-Za-z_][A-Za-z0-9_]*)(?::-([\s\S]*))?$/.exec(inner))) {
      out.push({ ref: { kind: "env", name: found[1], ...(found[2] !== undefined ? { fallback: found[2] } : {}) }, start, end });
    } else if ((found = /^secret:([A-Za-z_][A-Za-z0-9_.-]*)$/.exec(inner))) {
      out.push({ ref: { kind: "secret", name: found[1] }, start, end });
    } else if ((found = /^input:(.+)$/.exec(inner))) {
      out.push({ ref: { kind: "input", id: found[1] }, start, end });
    }
  }
  return out;
}

/** Replaces each reference with what `resolve` gives for it; `resolve` throws to refuse one. */
export function substitute(template: string, resolve: (ref: Reference) => string): string {
  let value = "";
  let last = 0;
  for (const { ref, start, end } of findReferences(template)) {
    value += template.slice(last, start) + resolve(ref);
    last = end;
  }
  return value + template.slice(last);
}

/** A VS Code input a server refers to: its id, the description shown when asking, whether it is a password. */
export interface InputSpec {
  id: string;
  description?: string;
  password?: boolean;
}

/** Fields whose `${input:ID}` is asked at connect time (mcp/inputs.ts); elsewhere an input is refused. */
const INPUT_FIELDS = /^(?:env\.|args\[)/;

/** How a field's references resolve when the config is read: `field` names it in errors. */
export function envResolver(field: string, env: Record<string, string | undefined>, inputs: Map<string, InputSpec>) {
  return (ref: Reference): string => {
    if (ref.kind === "input") {
      // Kept as written: the connection asks for it (once) and puts the answer in at connect time.
      if (INPUT_FIELDS.test(field)) return `\${input:${ref.id}}`;
      const about = inputs.get(ref.id)?.description;
      throw new Error(`${field} uses the input "${ref.id}"${about ? ` (${about})` : ""}; inputs are asked for only in env, args and headers`);
    }
    if (ref.kind === "secret") {
      // Kept as written in env (an imported literal moved to the keychain): read at connect time.
      if (field.startsWith("env.")) return `\${secret:${ref.name}}`;
      throw new Error(`${field} uses \${secret:${ref.name}}, which is read in env and headers only`);
    }
    const value = env[ref.name];
    if (value !== undefined) return value;
    if (ref.fallback !== undefined) return ref.fallback;
    throw new Error(`${field} needs the environment variable ${ref.name}, which is not set`);
  };
}

/** A local server's env with each `${secret:NAME}` read from the keychain (at connect time). */
export async function expandEnvSecrets(env: Record<string, string>, secret?: (name: string) => Promise<string | undefined>): Promise<Record<string, string>> {
  const out: Record<string, string> = {};
  for (const [key, template] of Object.entries(env)) {
    let value = "";
    let last = 0;
    for (const { ref, start, end } of findReferences(template)) {
      if (ref.kind !== "secret") continue;
      const found = secret ? await secret(ref.name) : undefined;
      if (found === undefined) throw new Error(`env ${key} needs the secret "${ref.name}", which is not set in the keychain`);
      value += template.slice(last, start) + found;
      last = end;
    }
    out[key] = value + template.slice(last);
  }
  return out;
}

/**
 * Expands `${VAR}` (also `${VAR:-default}`, `${env:VAR}`, `{env:VAR}`) from `env`,
 * `${secret:NAME}` through `secret` and `${input:ID}` from `inputs` (answered ones, mcp/inputs.ts),
 * in one pass so no value is read as a template again; a missing one is an error naming it, never a value.
 */
export async function expandHeaders(
  headers: Record<string, string>,
  env: Record<string, string | undefined>,
  secret?: (name: string) => Promise<string | undefined>,
  inputs: Map<string, string> = new Map(),
): Promise<Record<string, string>> {
  const out: Record<string, string> = {};
  for (const [key, template] of Object.entries(headers)) {
    const secrets = new Map<string, string | undefined>();
    for (const { ref } of findReferences(template)) {
      if (ref.kind === "secret" && !secrets.has(ref.name)) secrets.set(ref.name, secret ? await secret(ref.name) : undefined);
    }
    out[key] = substitute(template, (ref) => {
      if (ref.kind === "secret") {
        const found = secrets.get(ref.name);
        if (found === undefined) throw new Error(`header "${key}" needs the secret "${ref.name}", which is not set in the keychain`);
        return found;
      }
      if (ref.kind === "input") {
        const found = inputs.get(ref.id);
        if (found === undefined) throw new Error(`header "${key}" needs input ${ref.id}, which has not been answered`);
        return found;
      }
      const found = env[ref.name];
      if (found !== undefined) return found;
      if (ref.fallback !== undefined) return ref.fallback;
      throw new Error(`header "${key}" needs the environment variable ${ref.name}, which is not set`);
    });
  }
  return out;
}
