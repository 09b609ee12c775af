// An upper bound on the length of JSON.stringify(value), found by a walk instead of by writing
// the text: a bounds check that only needs "at most N characters" then serialises nothing when
// the value is well within (the common case), and falls back to the exact text near the limit.
// For values already within jsonBoundsProblem's bounds (the walk is bounded by them).

// Longest text JSON.stringify writes for a finite number ("-1.7976931348623157e+308" is 24).
const MAX_NUMBER_TEXT = 32;

/** Stricter than isPlainObject (shared/unknown-value.ts): a Map or a class instance fails here. */
function hasPlainPrototype(value: object): boolean {
  const proto = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null;
}

/**
 * At least JSON.stringify(value).length, or undefined when the walk cannot tell: anything but
 * plain objects, arrays, strings, finite numbers, booleans and null (a toJSON, a BigInt, a
 * getter that throws), or more than `maxNodes` values. Never throws.
 */
export function jsonLengthBound(value: unknown, maxNodes: number): number | undefined {
  try {
    const stack: unknown[] = [value];
    let total = 0;
    let nodes = 0;
    while (stack.length > 0) {
      const current = stack.pop();
      if (++nodes > maxNodes) return undefined;
      switch (typeof current) {
        case "string":
          // Every UTF-16 unit is written as itself or as an escape of at most 6 (\uXXXX).
          total += current.length * 6 + 2;
          continue;
        case "number":
          total += MAX_NUMBER_TEXT;
          continue;
        case "boolean":
          total += 5;
          continue;
        case "object":
          break;
        default:
          return undefined;
      }
      if (current === null) {
        total += 4;
        continue;
      }
      if (Array.isArray(current)) {
        // Brackets and a comma per item.
        total += 2 + current.length;
        for (let i = 0; i < current.length; i++) stack.push(current[i]);
        continue;
      }
      if (!hasPlainPrototype(current)) return undefined;
      total += 2;
      for (const key in current) {
        if (!Object.prototype.hasOwnProperty.call(current, key)) continue;
        // Quoted, escaped key, colon and comma.
        total += key.length * 6 + 4;
        stack.push((current as Record<string, unknown>)[key]);
      }
    }
    return total;
  } catch {
    return undefined;
  }
}
