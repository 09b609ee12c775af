// What the companion may send a server on its own, by the protocol era the server negotiated.
// The 2026-07-28 wire (the SDK client's `getProtocolEra()` says "modern") dropped ping,
// logging/setLevel, resources/(un)subscribe and everything of roots (SEP-2577 deprecates
// sampling, roots and logging; the modern wire has no server-initiated requests outside an
// `input_required` result). The SDK refuses such a send locally with "not supported by the
// negotiated protocol version"; choosing by era here means it is never attempted.
export type Era = "legacy" | "modern";

/** Client-to-server methods the 2026-07-28 wire defines (the SDK's 2026 registry, same set). */
const MODERN_REQUESTS = new Set([
  "tools/call",
  "tools/list",
  "prompts/get",
  "prompts/list",
  "resources/list",
  "resources/templates/list",
  "resources/read",
  "completion/complete",
  "server/discover",
  "subscriptions/listen",
]);
const MODERN_NOTIFICATIONS = new Set(["notifications/cancelled", "notifications/progress"]);

/** The era of a negotiated revision (revision ids are ISO dates); undefined before connecting. */
export function eraOf(version: string | undefined): Era | undefined {
  if (version === undefined) return undefined;
  return version < "2026-07-28" ? "legacy" : "modern";
}

/** Whether a server of `era` has `method` (a request or a notification the client sends). */
export function eraHas(era: Era | undefined, method: string): boolean {
  if (era === undefined) return false;
  if (era === "legacy") return true;
  return MODERN_REQUESTS.has(method) || MODERN_NOTIFICATIONS.has(method);
}

/**
 * The request a health check sends in `era`: `ping` where it exists; `server/discover` on the
 * modern wire, the cheapest request it answers without side effects.
 */
export function healthMethod(era: Era | undefined): string | undefined {
  if (era === "legacy") return "ping";
  if (era === "modern") return "server/discover";
  return undefined;
}

/**
 * An answer that proves the server is there even though it did not do what was asked: a JSON-RPC
 * error only a live peer sends (invalid request, method not found, invalid params, internal), or
 * the SDK's local "not supported by the negotiated protocol version" refusal.
 */
export function isLiveRefusal(error: unknown): boolean {
  const e = error as { code?: unknown; message?: unknown } | undefined;
  if (typeof e?.code === "number" && [-32600, -32601, -32602, -32603].includes(e.code)) return true;
  if (e?.code === "METHOD_NOT_SUPPORTED_BY_PROTOCOL_VERSION") return true;
  return typeof e?.message === "string" && e.message.includes("not supported by the negotiated protocol version");
}
