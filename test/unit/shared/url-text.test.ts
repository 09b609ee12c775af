import { describe, expect, it } from "vitest";
import { escapeHidden, hiddenCharacters } from "../../../src/shared/url-text";

describe("hiddenCharacters", () => {
  it("finds nothing in an ordinary URL, Unicode letters included", () => {
    expect(hiddenCharacters("https://例え.jp/パス?q=ü")).toEqual({ direction: false, invisible: false, codes: [] });
  });

  it("flags every direction control", () => {
    for (const cp of [0x202a, 0x202b, 0x202c, 0x202d, 0x202e, 0x2066, 0x2067, 0x2068, 0x2069, 0x200e, 0x200f, 0x061c]) {
      const found = hiddenCharacters(`https://example.com/${String.fromCodePoint(cp)}gpj.exe`);
      expect(found.direction, cp.toString(16)).toBe(true);
      expect(found.invisible).toBe(true);
    }
  });

  it("flags other invisible characters without calling them direction controls", () => {
    const found = hiddenCharacters("https://exa\u200Bmple.com/\u00AD\uFEFF\u{E0041}\u3164");
    expect(found).toEqual({ direction: false, invisible: true, codes: ["U+200B", "U+00AD", "U+FEFF", "U+E0041", "U+3164"] });
  });
});

describe("escapeHidden", () => {
  it("shows each hidden character as ⟨U+XXXX⟩ and leaves the rest alone", () => {
    expect(escapeHidden("https://evil.com/\u202Etxt.exe")).toBe("https://evil.com/⟨U+202E⟩txt.exe");
    expect(escapeHidden("a\u2066b\u2069c\u0000")).toBe("a⟨U+2066⟩b⟨U+2069⟩c⟨U+0000⟩");
    expect(escapeHidden("https://例え.jp/")).toBe("https://例え.jp/");
  });
});
