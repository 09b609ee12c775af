// The redaction registry: every secret value the companion knows (configured header values, secret-
// looking stdio env values, everything read from or written to the keychain, the gateway token)
// and one matcher that replaces any of them, in the encodings an echo is likely to use, with
// `[redacted]`. Servers echo request headers in error bodies; whatever they send back passes
// through here before it reaches a log line, a page or an agent.
//
// One registry per process: its composition root (src/main/app) makes it, the core registers
// into it, and app/egress.ts (the one place that scrubs what leaves) reads it. Nothing else
// holds it, so no module can scrub with a registry the core never filled.
//
// Choices (README "Security" says them to people):
// - Values shorter than MIN_SECRET_LENGTH are not registered: a 3-letter value would blank out
//   ordinary words in every log line. Such a value is not a credential anyone should rely on.
// - Nothing is ever unregistered: a rotated token or a replaced secret was a secret and stays
//   one for the life of the process. The oldest entries give way only past MAX_SCRUB_VALUES,
//   and current values are registered again each time they are read.
// - Matching is case-sensitive and literal (secrets are), over the union of every occurrence:
//   two secrets that overlap in a text are both hidden whole.

import { isSecretPair } from "../../forms/secret-shape";

export const REDACTED = "[redacted]";

/** Shorter values are not registered (they would mangle ordinary text). */
export const MIN_SECRET_LENGTH = 6;

/** Registered strings (values and their encodings) kept at once; a config has a handful. */
const MAX_SCRUB_VALUES = 2048;

/** Deeper than this a value is not walked but replaced whole: nothing arriving is this deep. */
const MAX_WALK_DEPTH = 256;

/** Headers that carry no credential: their values stay readable in logs. */
const PUBLIC_HEADERS = new Set([
  "accept",
  "accept-encoding",
  "accept-language",
  "cache-control",
  "content-type",
  "mcp-protocol-version",
  "user-agent",
]);

/** "Bearer x", "Basic x", "token x": a scheme word, then the credential. */
const SCHEME_VALUE = /^([A-Za-z][A-Za-z0-9._~+-]{0,31}) +(\S.*)$/s;

const escapeRegExp = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

function htmlEscape(s: string): string {
  return s.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;").replace(/'/g, "&#39;");
}

/** An own property even for "__proto__" (JSON.parse makes those; plain assignment would not). */
function define(target: Record<string, unknown>, key: string, value: unknown): void {
  Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
}

export class SecretScrubber {
  /** Insertion-ordered so the oldest give way first past the cap. */
  private readonly values = new Map<string, true>();
  private all: RegExp | null = null;
  private any: RegExp | null = null;
  private shortest = Infinity;
  private stale = false;

  get size(): number {
    return this.values.size;
  }

  /** Grows whenever a new value is registered: what was scrubbed before may need scrubbing again. */
  get generation(): number {
    return this.added;
  }
  private added = 0;

  /** Registers one secret value with the encodings an echo might carry it in. */
  register(value: string | null | undefined): void {
    if (typeof value !== "string" || value.length < MIN_SECRET_LENGTH || REDACTED.includes(value)) return;
    this.add(value);
    let encoded: string | undefined;
    try {
      encoded = encodeURIComponent(value);
    } catch {
      // A lone surrogate cannot be URL-encoded; nothing would send it so either.
    }
    if (encoded !== undefined) {
      this.add(encoded);
      this.add(encoded.replace(/%20/g, "+"));
    }
    // JSON-escaped, and escaped twice: an error message quoting a JSON body inside JSON.
    const json = JSON.stringify(value).slice(1, -1);
    this.add(json);
    this.add(JSON.stringify(json).slice(1, -1));
    this.add(htmlEscape(value));
    this.add(Buffer.from(value).toString("base64"));
    this.add(Buffer.from(value).toString("base64url"));
  }

  /**
   * A configured header value as sent. With a scheme ("Bearer x") the credential is what is
   * registered, so errors still read "Bearer [redacted]": every encoding of the whole value but
   * base64 contains the credential's, and the whole value's base64 is registered too. Basic
   * credentials are also registered decoded (`user:pass` and the password).
   */
  registerHeader(name: string, value: string): void {
    if (PUBLIC_HEADERS.has(name.toLowerCase())) return;
    const scheme = SCHEME_VALUE.exec(value);
    const credential = scheme?.[2].trim();
    if (!scheme || !credential || credential.length < MIN_SECRET_LENGTH) {
      this.register(value);
      return;
    }
    this.register(credential);
    this.add(Buffer.from(value).toString("base64"));
    if (scheme[1].toLowerCase() === "basic") {
      const decoded = Buffer.from(credential, "base64").toString("utf8");
      const colon = decoded.indexOf(":");
      if (colon > 0 && !decoded.includes("\uFFFD")) {
        this.register(decoded);
        this.register(decoded.slice(colon + 1));
      }
    }
  }

  /** A stdio server's env entry: registered when its name or its value says it is a secret. */
  registerEnv(name: string, value: string): void {
    if (isSecretPair(name, value)) this.register(value);
    this.registerUrlPassword(value);
  }

  /** `scheme://user:password@host`: the password (raw and decoded). */
  registerUrlPassword(value: string): void {
    if (!value.includes("@") || !value.includes("://")) return;
    try {
      const url = new URL(value);
      if (url.password) {
        this.register(url.password);
        this.register(decodeURIComponent(url.password));
      }
    } catch {
      // Not a URL.
    }
  }

  /** The text with every registered value (in every registered encoding) replaced. */
  scrub(text: string): string {
    if (text.length < this.shortest) return text;
    const all = this.matcher();
    if (!all) return text;
    all.lastIndex = 0;
    let out = "";
    let copied = 0;
    let spanStart = -1;
    let spanEnd = -1;
    for (let m = all.exec(text); m !== null; m = all.exec(text)) {
      const start = m.index;
      const end = start + m[0].length;
      // Step one past the start, not past the end: a second secret may begin inside this one.
      all.lastIndex = start + 1;
      if (spanEnd >= 0 && start <= spanEnd) {
        if (end > spanEnd) spanEnd = end;
        continue;
      }
      if (spanEnd >= 0) {
        out += text.slice(copied, spanStart) + REDACTED;
        copied = spanEnd;
      }
      spanStart = start;
      spanEnd = end;
    }
    if (spanEnd < 0) return text;
    return out + text.slice(copied, spanStart) + REDACTED + text.slice(spanEnd);
  }

  /** Whether any registered value occurs in the text. */
  contains(text: string): boolean {
    if (text.length < this.shortest) return false;
    this.matcher();
    return this.any !== null && this.any.test(text);
  }

  /**
   * A JSON-like value with every string (keys too) scrubbed: the same object when nothing
   * matched, a copy of the changed paths otherwise. Strings shorter than the shortest registered
   * value are skipped without a scan, so a typical question or status costs a walk, no more.
   */
  scrubValue<T>(value: T): T {
    if (this.values.size === 0) return value;
    return this.walk(value, 0) as T;
  }

  /**
   * An error's message (and its details, a HandlerError's list of problems) scrubbed: in place,
   * so the error keeps its class and identity; an error that cannot be changed (frozen) gives way
   * to a copy with the same prototype and fields, scrubbed. What comes back holds no secret.
   */
  scrubError<E>(error: E): E {
    if (!(error instanceof Error)) return error;
    const message = this.scrub(error.message);
    const details = (error as { details?: unknown }).details;
    const scrubbedDetails = Array.isArray(details) ? details.map((d: unknown) => (typeof d === "string" ? this.scrub(d) : d)) : undefined;
    const detailsChanged = scrubbedDetails !== undefined && scrubbedDetails.some((d, i) => d !== (details as unknown[])[i]);
    if (message === error.message && !detailsChanged) return error;
    try {
      if (message !== error.message) error.message = message;
      if (detailsChanged) for (let i = 0; i < scrubbedDetails.length; i++) (details as unknown[])[i] = scrubbedDetails[i];
      if (error.message === message) return error;
    } catch {
      // Frozen (or a message that is a getter): the copy below carries the scrubbed text instead.
    }
    const copy = Object.assign(Object.create(Object.getPrototypeOf(error) as object) as Error, error, {
      message,
      ...(scrubbedDetails !== undefined ? { details: scrubbedDetails } : {}),
    });
    if (error.stack !== undefined) copy.stack = this.scrub(error.stack);
    return copy as E;
  }

  private walk(value: unknown, depth: number): unknown {
    if (typeof value === "string") return this.scrub(value);
    if (typeof value !== "object" || value === null) return value;
    if (depth > MAX_WALK_DEPTH) return REDACTED;
    if (Array.isArray(value)) {
      let copy: unknown[] | undefined;
      for (let i = 0; i < value.length; i++) {
        const next = this.walk(value[i], depth + 1);
        if (next !== value[i]) (copy ??= value.slice())[i] = next;
      }
      return copy ?? value;
    }
    const proto = Object.getPrototypeOf(value);
    if (proto !== Object.prototype && proto !== null) return value;
    const record = value as Record<string, unknown>;
    const keys = Object.keys(record);
    let copy: Record<string, unknown> | undefined;
    for (let i = 0; i < keys.length; i++) {
      const key = keys[i];
      const item = record[key];
      const k = this.scrub(key);
      const v = this.walk(item, depth + 1);
      if (copy === undefined && (k !== key || v !== item)) {
        copy = {};
        for (let j = 0; j < i; j++) define(copy, keys[j], record[keys[j]]);
      }
      if (copy !== undefined) define(copy, k, v);
    }
    return copy ?? value;
  }

  private add(value: string): void {
    // A value inside the marker itself would make scrubbing its own output change it again.
    if (value.length < MIN_SECRET_LENGTH || REDACTED.includes(value)) return;
    if (this.values.has(value)) {
      // Still in use: move it to the young end so the cap drops stale values first.
      this.values.delete(value);
      this.values.set(value, true);
      return;
    }
    this.values.set(value, true);
    this.added++;
    // Kept current here, not only on rebuild: scrub's length check runs before the rebuild.
    if (value.length < this.shortest) this.shortest = value.length;
    while (this.values.size > MAX_SCRUB_VALUES) this.values.delete(this.values.keys().next().value as string);
    this.stale = true;
  }

  /** One combined pattern, rebuilt only after the set changed. Longest first: it wins a tie. */
  private matcher(): RegExp | null {
    if (this.stale) {
      this.stale = false;
      const sorted = [...this.values.keys()].sort((a, b) => b.length - a.length);
      if (sorted.length === 0) {
        this.all = this.any = null;
        this.shortest = Infinity;
      } else {
        const source = sorted.map(escapeRegExp).join("|");
        this.all = new RegExp(source, "g");
        this.any = new RegExp(source);
        this.shortest = sorted[sorted.length - 1].length;
      }
    }
    return this.all;
  }
}
