// One pass over a tool's input schema before anything compiles or serialises it: depth, node
// count and an estimate of its JSON size (limits.ts), plus what ajv's own check of a schema
// cannot do quickly (a `type` list is compared item by item for uniqueness: quadratic). It stops
// at the first bound crossed, so a 100k-option enum costs one short walk, not a stringify.
import { MAX_JSON_DEPTH, MAX_JSON_NODES, MAX_TOOL_SCHEMA_BYTES } from "../shared/limits";

/** Why `schema` is refused before compiling, or undefined. Iterative; never throws. */
export function toolSchemaProblem(schema: unknown): string | undefined {
  const values: unknown[] = [schema];
  const depths: number[] = [1];
  let nodes = 0;
  let bytes = 0;
  while (values.length > 0) {
    const value = values.pop();
    const depth = depths.pop()!;
    if (++nodes > MAX_JSON_NODES) return `it has more than ${MAX_JSON_NODES} values`;
    // Each value costs at least its text and a separator; escapes make the real size larger still.
    if (typeof value === "string") bytes += value.length + 3;
    else if (typeof value === "number") bytes += 8;
    else bytes += 5;
    if (bytes > MAX_TOOL_SCHEMA_BYTES) return `it is larger than ${MAX_TOOL_SCHEMA_BYTES} bytes`;
    if (typeof value !== "object" || value === null) continue;
    if (depth > MAX_JSON_DEPTH) return `it is nested more than ${MAX_JSON_DEPTH} levels deep`;
    if (Array.isArray(value)) {
      for (const item of value) {
        values.push(item);
        depths.push(depth + 1);
      }
      continue;
    }
    for (const key in value) {
      if (!Object.prototype.hasOwnProperty.call(value, key)) continue;
      const item = (value as Record<string, unknown>)[key];
      if (key === "type" && Array.isArray(item) && item.length > 7) return `a "type" list has ${item.length} entries; JSON has 7 types`;
      bytes += key.length + 3;
      values.push(item);
      depths.push(depth + 1);
    }
  }
  return undefined;
}
