// Punycode (RFC 3492) decoding for the URL card: `new URL` hands the page a host in its ASCII
// `xn--` form, and the person should see the Unicode name it stands for, the look-alike itself.
// Decoding only; the page never builds a host from Unicode.

const BASE = 36;
const T_MIN = 1;
const T_MAX = 26;
const SKEW = 38;
const DAMP = 700;
const INITIAL_BIAS = 72;
const INITIAL_N = 128;
const MAX_CODE_POINT = 0x10ffff;

function adapt(delta: number, points: number, first: boolean): number {
  let d = first ? Math.floor(delta / DAMP) : delta >> 1;
  d += Math.floor(d / points);
  let k = 0;
  while (d > ((BASE - T_MIN) * T_MAX) >> 1) {
    d = Math.floor(d / (BASE - T_MIN));
    k += BASE;
  }
  return k + Math.floor(((BASE - T_MIN + 1) * d) / (d + SKEW));
}

function digit(code: number): number {
  if (code >= 0x30 && code <= 0x39) return code - 22; // 0-9 → 26-35
  if (code >= 0x41 && code <= 0x5a) return code - 0x41; // A-Z
  if (code >= 0x61 && code <= 0x7a) return code - 0x61; // a-z
  return BASE;
}

/** One label's Punycode payload (after `xn--`) decoded, or null when it is not valid Punycode. */
export function decodeLabel(input: string): string | null {
  if (input === "") return null;
  const output: number[] = [];
  const basic = input.lastIndexOf("-");
  for (let j = 0; j < Math.max(basic, 0); j++) {
    const c = input.charCodeAt(j);
    if (c >= 0x80) return null;
    output.push(c);
  }
  let n = INITIAL_N;
  let bias = INITIAL_BIAS;
  let i = 0;
  for (let index = basic > 0 ? basic + 1 : 0; index < input.length; ) {
    const oldi = i;
    for (let w = 1, k = BASE; ; k += BASE) {
      if (index >= input.length) return null;
      const d = digit(input.charCodeAt(index++));
      if (d >= BASE) return null;
      i += d * w;
      if (!Number.isSafeInteger(i)) return null;
      const t = k <= bias ? T_MIN : k >= bias + T_MAX ? T_MAX : k - bias;
      if (d < t) break;
      w *= BASE - t;
      if (!Number.isSafeInteger(w)) return null;
    }
    const points = output.length + 1;
    bias = adapt(i - oldi, points, oldi === 0);
    n += Math.floor(i / points);
    if (n > MAX_CODE_POINT) return null;
    i %= points;
    output.splice(i++, 0, n);
  }
  return String.fromCodePoint(...output);
}

/** "xn--80ak6aa92e.com" → "аррӏе.com"; labels that are not Punycode stay as they are. */
export function hostToUnicode(host: string): string {
  return host
    .split(".")
    .map((label) => {
      if (!label.toLowerCase().startsWith("xn--")) return label;
      return decodeLabel(label.slice(4)) ?? label;
    })
    .join(".");
}
