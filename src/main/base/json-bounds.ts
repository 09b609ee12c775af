// Checks the shape of a JSON value before it is stored or serialised: nesting depth and node
// count (limits.ts). The walk is iterative, so a value nested a million levels deep is measured,
// not overflowed on; JSON.parse accepts such values, but JSON.stringify and IPC cloning throw.
import { MAX_JSON_DEPTH, MAX_JSON_NODES } from "../../shared/limits";

export interface JsonBounds {
  maxDepth?: number;
  maxNodes?: number;
}

/** Why `value` is out of bounds, in one sentence, or undefined when it is within them. */
export function jsonBoundsProblem(value: unknown, bounds: JsonBounds = {}): string | undefined {
  const maxDepth = bounds.maxDepth ?? MAX_JSON_DEPTH;
  const maxNodes = bounds.maxNodes ?? MAX_JSON_NODES;
  // Parallel stacks of values and their depths: no per-node allocation beyond the push.
  const values: unknown[] = [value];
  const depths: number[] = [1];
  let nodes = 0;
  while (values.length > 0) {
    const current = values.pop();
    const depth = depths.pop()!;
    if (++nodes > maxNodes) return `it has more than ${maxNodes} values`;
    if (typeof current !== "object" || current === null) continue;
    if (depth > maxDepth) return `it is nested more than ${maxDepth} levels deep`;
    if (Array.isArray(current)) {
      for (let i = 0; i < current.length; i++) {
        values.push(current[i]);
        depths.push(depth + 1);
      }
    } else {
      for (const key in current) {
        if (!Object.prototype.hasOwnProperty.call(current, key)) continue;
        values.push((current as Record<string, unknown>)[key]);
        depths.push(depth + 1);
      }
    }
  }
  return undefined;
}

/** JSON.stringify that reports failure (cycles, depth, BigInt) as undefined instead of a throw. */
export function tryStringify(value: unknown): string | undefined {
  try {
    return JSON.stringify(value);
  } catch {
    return undefined;
  }
}
