// Characters that make a URL display as something other than what it is. Bidi controls reorder
// the text around them (U+202E turns "moc.elgoog//:sptth" into a plausible address), and other
// invisible format characters hide inside a host or path. The URL card warns on both and shows
// each one visibly escaped; the page never relies on how a browser happens to render them.

/** Direction controls: embeddings, overrides and isolates, the marks, and the Arabic letter mark. */
const DIRECTION = /[\u202A-\u202E\u2066-\u2069\u200E\u200F\u061C]/u;
/**
 * Every character that shows nothing: format (Cf, which includes the direction controls,
 * zero-width spaces and joiners, the BOM, tags) and control (Cc) characters, plus the Hangul
 * fillers, which are letters that render as blank space.
 */
const INVISIBLE = /[\p{Cf}\p{Cc}\u115F\u1160\u3164\uFFA0]/gu;

export interface HiddenCharacters {
  /** At least one direction control: the text may display in a different order. */
  direction: boolean;
  /** At least one invisible character of any kind (direction controls included). */
  invisible: boolean;
  /** Each distinct invisible character found, as `U+XXXX`, in order of first appearance. */
  codes: string[];
}

function code(ch: string): string {
  return `U+${ch.codePointAt(0)!.toString(16).toUpperCase().padStart(4, "0")}`;
}

/** What `text` hides. */
export function hiddenCharacters(text: string): HiddenCharacters {
  const codes = [...new Set(Array.from(text.matchAll(INVISIBLE), (m) => code(m[0])))];
  return { direction: DIRECTION.test(text), invisible: codes.length > 0, codes };
}

/** `text` with each invisible character replaced by a visible `⟨U+XXXX⟩`. */
export function escapeHidden(text: string): string {
  return text.replace(INVISIBLE, (ch) => `⟨${code(ch)}⟩`);
}
