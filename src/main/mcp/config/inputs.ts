// VS Code's `${input:ID}` in a server's env, args and headers: the person's own configuration
// value for their own server. Imports keep the reference and the input's description beside the
// entry; the first time the server starts, the value is asked once through the Inbox and kept in
// the SecretStore under `input.<server>.<id>`, never in the config file. Both password and plain
// inputs go there: one place the person can see, change or delete them (Settings → Secrets), and
// every stored value is registered with the log scrubber. This is not a server's elicitation
// (a server's form must not collect credentials: forms/credential.ts warns of one that asks): the companion asks for a value the
// person's own config refers to, like setting a secret in Settings, and the prompt says so.
import { createHash, randomUUID } from "node:crypto";
import type { Request } from "../../../shared/types";
import type { ServerConfig } from "./config";
import { findReferences, type InputSpec } from "./references";
import type { WaitFor } from "../../inbox/wait-for";

export type { InputSpec };

/** The form's one field: the value as typed. */
const FIELD = "value";

/** A name the SecretStore takes (`[A-Za-z0-9_.-]{1,128}`), stable for a server and an input id. */
export function inputSecretName(server: string, id: string): string {
  const part = (text: string) => {
    const plain = text.replace(/[^A-Za-z0-9_-]/g, "_").slice(0, 40);
    // Two names that read alike once cleaned ("a b", "a_b") must not share a value.
    return plain === text ? plain : `${plain}-${createHash("sha256").update(text).digest("hex").slice(0, 8)}`;
  };
  return `input.${part(server)}.${part(id)}`;
}

/** The Inbox question for one input: one text field, masked when the input is a password. */
export function inputRequest(server: string, spec: InputSpec): Request {
  const about = spec.description ?? spec.id;
  return {
    id: `inp-${randomUUID()}`,
    kind: "input",
    prompt: `VS Code config asks: ${about}. Stored in your keychain.`,
    data: {
      schema: {
        type: "object",
        properties: {
          [FIELD]: {
            type: "string",
            title: about,
            description: `The value of \${input:${spec.id}} in the config of "${server}". It is kept in the keychain as ${inputSecretName(server, spec.id)}, never in a file.`,
            ...(spec.password ? { format: "password", writeOnly: true } : {}),
          },
        },
        required: [FIELD],
      },
    },
  };
}

/** The ids of every `${input:ID}` in the strings the companion expands at connect time. */
export function referencedInputs(config: ServerConfig): string[] {
  const texts = config.type === "local" ? [...config.args, ...Object.values(config.env)] : Object.values(config.headers);
  const ids = new Set<string>();
  for (const text of texts) for (const { ref } of findReferences(text)) if (ref.kind === "input") ids.add(ref.id);
  return [...ids];
}

class InputNeeded extends Error {
  constructor(spec: InputSpec, why: string) {
    super(`needs input ${spec.id}${spec.description ? `: ${spec.description}` : ""} (${why})`);
    this.name = "InputNeeded";
  }
}

/**
 * Declines are remembered per config object: the supervisor's automatic restarts reuse the same
 * object and so do not ask again and again; an edit of that server (a new object) asks afresh, so
 * does the person's Retry (askAgain), and a value set in Settings → Secrets is found on the next try.
 */
const declined = new WeakMap<ServerConfig, Set<string>>();

/** The person asked for this server again (Retry): a declined input is a question again. */
export function askAgain(config: ServerConfig): void {
  declined.delete(config);
}

/**
 * The value of each input `config` refers to: from the SecretStore, else asked through the
 * Inbox and stored. Throws InputNeeded (naming the input) when it cannot be had.
 */
/** Where input values come from: the keychain, else the person (part of the source's LoadOptions). */
export interface InputSources {
  waitFor?: WaitFor;
  /** Resolves `${secret:NAME}` in remote headers; a missing secret fails that server. */
  secret?: (name: string) => Promise<string | undefined>;
  /** Keeps the answer to a VS Code `${input:ID}`; without it the answer lasts one start. */
  storeSecret?: (name: string, value: string) => Promise<void>;
  /** Called with log lines that never carry header values or secrets. */
  log?: (line: string) => void;
}

export async function resolveInputs(config: ServerConfig, options: InputSources, signal?: AbortSignal): Promise<Map<string, string>> {
  const values = new Map<string, string>();
  for (const id of referencedInputs(config)) {
    const spec: InputSpec = { id, ...config.inputs?.find((i) => i.id === id) };
    const name = inputSecretName(config.name, id);
    const stored = await options.secret?.(name);
    if (stored !== undefined) {
      values.set(id, stored);
      continue;
    }
    if (declined.get(config)?.has(id)) throw new InputNeeded(spec, `declined; Retry asks again, or set ${name} in Settings → Secrets`);
    if (!options.waitFor) throw new InputNeeded(spec, `no one to ask; set ${name} in Settings → Secrets`);
    const answer = await options.waitFor(inputRequest(config.name, spec), { server: config.name, signal: signal ?? new AbortController().signal });
    const value = answer.ok ? answer.data?.[FIELD] : undefined;
    if (typeof value !== "string") {
      if (answer.ok || answer.reason === "declined") {
        const set = declined.get(config) ?? new Set<string>();
        set.add(id);
        declined.set(config, set);
      }
      throw new InputNeeded(spec, answer.ok ? "no value was given; Retry asks again" : answer.reason === "declined" ? "declined; Retry asks again" : `not answered: ${answer.reason ?? "cancelled"}`);
    }
    if (options.storeSecret) await options.storeSecret(name, value);
    else options.log?.(`${config.name}: the answer to input ${id} is used for this start only (no keychain to keep it in)`);
    values.set(id, value);
  }
  return values;
}

/** `text` with each `${input:ID}` whose value is known replaced by it; one pass, so a value is never read again. */
export function substituteInputs(text: string, values: Map<string, string>): string {
  let out = "";
  let last = 0;
  for (const { ref, start, end } of findReferences(text)) {
    if (ref.kind !== "input" || !values.has(ref.id)) continue;
    out += text.slice(last, start) + values.get(ref.id);
    last = end;
  }
  return out + text.slice(last);
}

/** A local server's args and env with their inputs in place (headers go through expandHeaders). */
export function withInputs<T extends ServerConfig>(config: T, values: Map<string, string>): T {
  if (values.size === 0 || config.type !== "local") return config;
  return {
    ...config,
    args: config.args.map((a) => substituteInputs(a, values)),
    env: Object.fromEntries(Object.entries(config.env).map(([k, v]) => [k, substituteInputs(v, values)])),
  };
}
