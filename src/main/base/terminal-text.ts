// Text from outside (a server's stderr, a question's prompt, a server or tool name, another app's
// config, a history row) on its way to a terminal or a log line. A terminal obeys what it is sent:
// OSC 52 writes the clipboard, CSI 2J clears the screen, OSC 0 retitles the window, and a
// right-to-left override makes a line read differently from what it says. So every escape
// sequence goes whole (not just its ESC, which would leave "[2J" behind), every other control
// character goes, and bidi overrides go; printable text, including any script, is left as it is.
//
// What is removed:
// - ESC sequences: CSI (ESC [ … final byte), the string sequences OSC (ESC ]), DCS (ESC P),
//   SOS (ESC X), PM (ESC ^) and APC (ESC _) up to their terminator BEL or ST (ESC \ or U+009C),
//   or to the end of the text when unterminated (a terminal would swallow that much too), and the
//   short ones (ESC c, ESC ( B, ESC 7 …). A lone ESC goes by itself.
// - Their 8-bit C1 forms: U+009B CSI, U+009D OSC, U+0090 DCS, U+0098 SOS, U+009E PM, U+009F APC;
//   every other C0 and C1 control, and DEL.
// - Bidi embeddings, overrides and isolates: U+202A–U+202E and U+2066–U+2069 (the marks
//   U+200E/U+200F change no order of their own and stay).
// Line breaks (\n, \r\n, \r, U+0085, U+2028, U+2029) and tabs become a space, unless `lines` is
// set: then a line break is "\n" and a tab stays, for the multi-line fields a table allows.

const ESC = 0x1b;
const BEL = 0x07;
const ST = 0x9c;
const CSI = 0x9b;
/** The introducers of string sequences, in both their 8-bit form and as the byte after ESC. */
const STRING_C1 = new Set([0x90, 0x98, 0x9d, 0x9e, 0x9f]);
const STRING_AFTER_ESC = new Set([0x50 /* P */, 0x58 /* X */, 0x5d /* ] */, 0x5e /* ^ */, 0x5f /* _ */]);

function isBidiControl(c: number): boolean {
  return (c >= 0x202a && c <= 0x202e) || (c >= 0x2066 && c <= 0x2069);
}

function isLineBreak(c: number): boolean {
  return c === 0x0a || c === 0x0d || c === 0x0b || c === 0x0c || c === 0x85 || c === 0x2028 || c === 0x2029;
}

/** Past a CSI's parameter and intermediate bytes and its final byte, from `i` (after the introducer). */
function csiEnd(text: string, i: number): number {
  while (i < text.length && text.charCodeAt(i) >= 0x20 && text.charCodeAt(i) <= 0x3f) i++;
  if (i < text.length && text.charCodeAt(i) >= 0x40 && text.charCodeAt(i) <= 0x7e) i++;
  return i;
}

/** Past a string sequence's terminator, from `i` (after the introducer). An ESC that does not
 * begin ST, or CAN/SUB, ends the string without being part of it (terminals abort there too). */
function stringEnd(text: string, i: number): number {
  for (; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === BEL || c === ST) return i + 1;
    if (c === ESC) return text.charCodeAt(i + 1) === 0x5c ? i + 2 : i;
    if (c === 0x18 || c === 0x1a) return i;
  }
  return i;
}

/** Past an escape sequence that starts with ESC at `i`. */
function escEnd(text: string, i: number): number {
  const next = text.charCodeAt(i + 1);
  if (next === 0x5b /* [ */) return csiEnd(text, i + 2);
  if (STRING_AFTER_ESC.has(next)) return stringEnd(text, i + 2);
  let j = i + 1;
  while (j < text.length && text.charCodeAt(j) >= 0x20 && text.charCodeAt(j) <= 0x2f) j++;
  if (j < text.length && text.charCodeAt(j) >= 0x30 && text.charCodeAt(j) <= 0x7e) return j + 1;
  // A lone ESC (or one before text that makes no sequence): only the ESC goes.
  return i + 1;
}

/**
 * `text` with no escape sequence, no control character and no bidi override left: safe to write
 * to a terminal or a log line. With `lines`, "\n" and "\t" stay (line breaks made "\n");
 * without, each line break or tab is a space. Idempotent; text without controls comes back as is.
 */
export function terminalText(text: string, options: { lines?: boolean } = {}): string {
  const lines = options.lines === true;
  let out = "";
  let plainFrom = 0;
  let i = 0;
  while (i < text.length) {
    const c = text.charCodeAt(i);
    const control = c < 0x20 || (c >= 0x7f && c <= 0x9f) || c === 0x2028 || c === 0x2029 || isBidiControl(c);
    if (!control) {
      i++;
      continue;
    }
    out += text.slice(plainFrom, i);
    let next = i + 1;
    if (c === ESC) next = escEnd(text, i);
    else if (c === CSI) next = csiEnd(text, i + 1);
    else if (STRING_C1.has(c)) next = stringEnd(text, i + 1);
    else if (c === 0x09) out += lines ? "\t" : " ";
    else if (isLineBreak(c)) {
      // \r\n is one break.
      if (c === 0x0d && text.charCodeAt(i + 1) === 0x0a) next = i + 2;
      out += lines ? "\n" : " ";
    }
    i = next;
    plainFrom = i;
  }
  return plainFrom === 0 ? text : out + text.slice(plainFrom);
}

// JSON.stringify escapes U+0000–U+001F but writes DEL, the C1 controls, U+2028/U+2029 and the
// bidi controls as they are; the same characters terminalText removes, escaped instead.
// eslint-disable-next-line no-control-regex
const JSON_RAW = /[\u007f-\u009f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g;

/**
 * `JSON.stringify(value, null, indent)` with every control character escaped (\u001b, \u009b,
 * \u2028 …), so `--json` output keeps each value exactly and still writes no control to a
 * terminal. Those characters occur only inside JSON strings, where an escape means the same.
 */
export function terminalJson(value: unknown, indent?: number): string {
  return (JSON.stringify(value, null, indent) ?? "null").replace(JSON_RAW, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`);
}
