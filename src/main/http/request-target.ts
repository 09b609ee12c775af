// The request target (`GET <target> HTTP/1.1`) as a URL, without ever throwing. `new URL(target,
// base)` throws on targets a client may send (`//`, `http://[`), and reads `//host/x` as another
// host; here origin-form is always a path on our own origin, and absolute-form must be plain http.
const BASE = "http://127.0.0.1";

/** The parsed target, or undefined when it is not one a browser or an agent would send. */
export function parseTarget(target: string | undefined): URL | undefined {
  const raw = target ?? "/";
  try {
    if (raw.startsWith("/")) return new URL(BASE + raw);
    // Absolute-form (RFC 9112, section 3.2.2) is what proxies send; its host is checked by the guard's
    // Host rule, so only the path and query are taken from it.
    const absolute = new URL(raw);
    if (absolute.protocol !== "http:") return undefined;
    return new URL(BASE + absolute.pathname + absolute.search);
  } catch {
    return undefined;
  }
}

// Characters a path may hold that the URL parser keeps exactly as written: no `%` (it would read
// `%2e` as a dot segment), no `\` (read as `/`), no spaces or controls (stripped or encoded).
function isPlainPathChar(code: number): boolean {
  return (
    (code >= 0x61 && code <= 0x7a) || // a-z
    (code >= 0x41 && code <= 0x5a) || // A-Z
    (code >= 0x30 && code <= 0x39) || // 0-9
    code === 0x2f || // /
    code === 0x2d || // -
    code === 0x5f || // _
    code === 0x2e || // . (not right after a slash: checked below)
    code === 0x7e // ~
  );
}

/**
 * `parseTarget(target)?.pathname` without building a URL for the targets agents send on every
 * call (`/mcp`, `/v1/requests/<id>?wait=…`): a path of plain characters, no dot segment, up to
 * `?`. Anything else takes the full parse, so the answer is the same for every input.
 */
export function targetPath(target: string | undefined): string | undefined {
  const raw = target ?? "/";
  if (raw.charCodeAt(0) === 0x2f) {
    let end = 1;
    for (; end < raw.length; end++) {
      const code = raw.charCodeAt(end);
      if (code === 0x3f) break; // ?
      // A dot right after a slash may start a dot segment (`/.`, `/..`), which the parser removes.
      if (!isPlainPathChar(code) || (code === 0x2e && raw.charCodeAt(end - 1) === 0x2f)) return parseTarget(raw)?.pathname;
    }
    // Controls and spaces at the very end are stripped by the parser; past `?` they only touch the query.
    return raw.slice(0, end);
  }
  return parseTarget(raw)?.pathname;
}

/** percent-decoding that reports malformed escapes (`%E0%A4%A`) as undefined instead of a throw. */
export function tryDecode(text: string): string | undefined {
  try {
    return decodeURIComponent(text);
  } catch {
    return undefined;
  }
}
