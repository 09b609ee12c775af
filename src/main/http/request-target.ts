// The request target (`GET <target> HTTP/1.1`) as a URL, without ever throwing. `new URL(target,
// base)` throws on targets a client may send (`//`, `http://[`), and reads `//host/x` as another
// host; here origin-form is always a path on our own origin, and absolute-form must be plain http.
const BASE = "http://127.0.0.1";

/** The parsed target, or undefined when it is not one a browser or an agent would send. */
export function parseTarget(target: string | undefined): URL | undefined {
  const raw = target ?? "/";
  try {
    if (raw.startsWith("/")) return new URL(BASE + raw);
    // Absolute-form (RFC 9112 §3.2.2) is what proxies send; its host is checked by the guard's
    // Host rule, so only the path and query are taken from it.
    const absolute = new URL(raw);
    if (absolute.protocol !== "http:") return undefined;
    return new URL(BASE + absolute.pathname + absolute.search);
  } catch {
    return undefined;
  }
}

/** percent-decoding that reports malformed escapes (`%E0%A4%A`) as undefined instead of a throw. */
export function tryDecode(text: string): string | undefined {
  try {
    return decodeURIComponent(text);
  } catch {
    return undefined;
  }
}
