// ajv's `code.regExp` engine on re2js: `pattern` runs in time linear in the input, whatever the
// pattern, so no schema a server sends can stall the main thread with catastrophic backtracking.
// A pattern re2js cannot compile (lookaround, backreferences) or one past MAX_PATTERN_LENGTH is
// dropped: it matches everything, as if the keyword were absent, rather than run on a
// backtracking engine or fail the whole schema. Linear is not yet bounded: re2js's NFA fallback
// costs input length × program size, so a check past MAX_PATTERN_STEPS skips the pattern too.
import type { CodeOptions } from "ajv";
import { RE2JS } from "re2js";
import { MAX_PATTERN_LENGTH, MAX_PATTERN_STEPS } from "../shared/limits";

type RegExpEngine = NonNullable<CodeOptions["regExp"]>;
type RegExpLike = ReturnType<RegExpEngine>;

/** Compiles `pattern` for linear-time matching, or undefined when it is too long or unsupported. */
function compileLinear(pattern: string): RE2JS | undefined {
  if (typeof pattern !== "string" || pattern.length > MAX_PATTERN_LENGTH) return undefined;
  try {
    return RE2JS.compile(pattern);
  } catch {
    return undefined;
  }
}

/** Whether a pattern would be kept (compiled on re2js) rather than dropped. */
export function isLinearPattern(pattern: unknown): pattern is string {
  return typeof pattern === "string" && compileLinear(pattern) !== undefined;
}

function engine(pattern: string, flags: string): RegExpLike {
  const re = compileLinear(pattern);
  // ajv keys its scope by toString(): it must differ per pattern, or every pattern in a schema
  // would share the first one's matcher.
  const name = `re2:/${pattern}/${flags}${re ? "" : " (dropped)"}`;
  // JSON Schema's `pattern` is unanchored, like RegExp#test; re2js's test() is a find, the same.
  // Instructions of the compiled program (re2js keeps it on its RE2), else the pattern's length.
  const program = (re as unknown as { re2Input?: { prog?: { numInst?: () => number } } } | undefined)?.re2Input?.prog;
  const size = Math.max(1, program?.numInst?.() ?? pattern.length);
  const test = (s: string) => s.length * size > MAX_PATTERN_STEPS || re!.test(s);
  const like: RegExpLike & { toString(): string } = { test: re ? test : () => true, toString: () => name };
  return like;
}

/** For standalone code ajv needs a module path to require; this module's export serves. */
export const re2RegExp: RegExpEngine = Object.assign(engine, { code: 'require("./re2-engine").re2RegExp' });
