// terminalText and terminalJson: what a terminal would obey goes, whole; printable text stays.
import { describe, expect, it } from "vitest";
import { terminalJson, terminalText } from "../../../../src/main/base/terminal-text";

describe("terminalText", () => {
  it.each([
    ["OSC 52 clipboard write (BEL)", "a\x1b]52;c;ZXZpbA==\x07b", "ab"],
    ["OSC 0 title (ST as ESC \\)", "a\x1b]0;pwned\x1b\\b", "ab"],
    ["OSC ended by 8-bit ST", "a\x1b]0;pwned\u009cb", "ab"],
    ["CSI clear screen and home", "a\x1b[2J\x1b[Hb", "ab"],
    ["CSI with private parameters and intermediates", "a\x1b[?1049h\x1b[1 qb", "ab"],
    ["SGR colour", "\x1b[31mred\x1b[0m", "red"],
    ["8-bit CSI", "a\u009b2Jb", "ab"],
    ["8-bit OSC ended by 8-bit ST", "a\u009d0;x\u009cb", "ab"],
    ["8-bit OSC ended by BEL", "a\u009d52;c;ZXZpbA==\x07b", "ab"],
    ["DCS, SOS, PM, APC", "a\x1bPq#0\x1b\\b\x1bXs\x1b\\c\x1b^p\x1b\\d\x1b_a\x1b\\e\u0090x\u009cf", "abcdef"],
    ["short ESC sequences (RIS, charset, save cursor)", "a\x1bcb\x1b(Bc\x1b7d", "abcd"],
    ["a lone ESC at the end", "abc\x1b", "abc"],
    ["ESC before a non-sequence character", "a\x1b\u00e9b", "a\u00e9b"],
    ["an unterminated OSC swallows the rest, as a terminal would", "a\x1b]0;never ends", "a"],
    ["an ESC inside an OSC ends it and is read anew", "a\x1b]0;x\x1b[2Jb", "ab"],
    ["BEL, backspace, NUL, DEL, other C1", "a\x07\x08\x00\x7f\u0085\u0084b", "a b"],
    ["bidi overrides and isolates", "a\u202ecba\u202c\u2066x\u2069", "acbax"],
  ])("removes %s", (_name, input, expected) => {
    expect(terminalText(input)).toBe(expected);
  });

  it("keeps printable text of any script, and the bidi marks that reorder nothing", () => {
    const text = "Déployer « main » — 部署 🚀 עברית\u200f ok";
    expect(terminalText(text)).toBe(text);
    expect(terminalText(text, { lines: true })).toBe(text);
  });

  it("makes line breaks and tabs spaces on one line; keeps them (as \\n) with lines", () => {
    const text = "one\ttwo\r\nthree\rfour\u2028five\u2029six\nseven";
    expect(terminalText(text)).toBe("one two three four five six seven");
    expect(terminalText(text, { lines: true })).toBe("one\ttwo\nthree\nfour\nfive\nsix\nseven");
  });
});

describe("terminalJson", () => {
  it("escapes what JSON.stringify leaves raw, and parses back to the same value", () => {
    const value = { prompt: "\x1b]52;c;ZXZpbA==\x07 \u009b2J \u009d0;x\u009c \x7f \u2028 \u202e", n: 1 };
    const text = terminalJson(value);
    expect(JSON.stringify(value)).toMatch(/[\u007f-\u009f\u2028\u202e]/);
    expect(text).not.toMatch(/[\u0000-\u001f\u007f-\u009f\u2028\u2029\u202a-\u202e\u2066-\u2069]/);
    expect(text).toContain("\\u001b]52;c;ZXZpbA==\\u0007 \\u009b2J \\u009d0;x\\u009c \\u007f \\u2028 \\u202e");
    expect(JSON.parse(text)).toEqual(value);
    expect(JSON.parse(terminalJson(value, 2))).toEqual(value);
  });
});

describe("scrubbedLog, the sink every log line of the app goes through", () => {
  it("writes one line with neither a registered secret nor a control character", async () => {
    const { scrubbedLog } = await import("../../../../src/main/app/egress");
    const { SecretScrubber } = await import("../../../../src/main/secrets/scrub");
    const scrubber = new SecretScrubber();
    scrubber.register("s3cr3t-value-for-log");
    const lines: string[] = [];
    scrubbedLog((line) => lines.push(line), scrubber)('MCP server "x" failed: its last output: boom \x1b]52;c;ZXZpbA==\x07\nfake line s3cr3t-value-for-log \u009b2J');
    expect(lines).toEqual(['MCP server "x" failed: its last output: boom  fake line [redacted] ']);
  });
});
