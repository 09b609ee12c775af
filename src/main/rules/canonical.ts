// One JSON text per value whatever the order its object keys arrived in, so a hash of it names the
// value and not its spelling. Bounded by the caller (json-bounds) before it is called.

export function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(",")}]`;
  if (typeof value === "object" && value !== null) {
    const record = value as Record<string, unknown>;
    const keys = Object.keys(record)
      .filter((k) => record[k] !== undefined)
      .sort();
    return `{${keys.map((k) => `${JSON.stringify(k)}:${canonicalJson(record[k])}`).join(",")}}`;
  }
  // undefined, functions and symbols have no JSON; null stands for them as JSON.stringify does in arrays.
  return JSON.stringify(value) ?? "null";
}
