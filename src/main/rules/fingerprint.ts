// The schema fingerprint: which form a rule answers. The requested schema is first reduced to the
// flat form subset (the same reduction the check runs), so unknown keywords and their order do not
// count; prose that does not change what is asked (descriptions, pre-filled defaults) is left out,
// so a reworded hint keeps the rule, while a new field, another type, choice or limit does not.
import { createHash } from "node:crypto";
import { reduceFormSchema } from "../../forms/flat-schema";
import { canonicalJson } from "./canonical";
import { isPlainObject } from "../../shared/unknown-value";

const PROSE = new Set(["description", "default"]);

function withoutProse(property: unknown): unknown {
  if (!isPlainObject(property)) return property;
  return Object.fromEntries(Object.entries(property).filter(([key]) => !PROSE.has(key)));
}

/** `sha256:` and 32 hex digits, or undefined when the schema is not a form the check accepts. */
export function schemaFingerprint(schema: unknown): string | undefined {
  const reduced = reduceFormSchema(schema);
  if (!reduced.ok) return undefined;
  const { properties, required, ...top } = reduced.schema;
  const normal = {
    ...top,
    properties: Object.fromEntries(Object.entries((properties ?? {}) as Record<string, unknown>).map(([k, v]) => [k, withoutProse(v)])),
    // Which fields are required is a set; the order a server lists them in says nothing.
    ...(Array.isArray(required) ? { required: [...(required as string[])].sort() } : {}),
  };
  return `sha256:${createHash("sha256").update(canonicalJson(normal)).digest("hex").slice(0, 32)}`;
}
