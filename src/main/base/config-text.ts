// Config text: JSON with comments and trailing commas (or strict JSON where another client's own
// file takes none), parsed with the line and column of the first error a person can act on.
// Every config the companion reads — its own and other clients' — goes through here.
import { parse as parseJsonc, printParseErrorCode, type ParseError } from "jsonc-parser";

export class McpConfigError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "McpConfigError";
  }
}

/** 1-based line and column of a character offset, for messages a person can act on. */
function lineAndColumn(text: string, offset: number): { line: number; column: number } {
  const before = text.slice(0, offset);
  const line = before.split("\n").length;
  return { line, column: before.length - before.lastIndexOf("\n") };
}

/**
 * Parses JSON text, naming the line and column of the first syntax error. `jsonc` (the default)
 * accepts comments and trailing commas, as VS Code, Zed and opencode do; `jsonc: false` is for
 * files whose own client reads strict JSON, so we refuse what that client would refuse.
 */
export function parseConfigText(text: string, origin = "MCP config", options: { jsonc?: boolean } = {}): unknown {
  const jsonc = options.jsonc !== false;
  const errors: ParseError[] = [];
  const value: unknown = parseJsonc(text, errors, { allowTrailingComma: jsonc, disallowComments: !jsonc, allowEmptyContent: false });
  if (errors.length > 0) {
    const first = errors[0];
    const { line, column } = lineAndColumn(text, first.offset);
    throw new McpConfigError(`${origin} is not valid JSON${jsonc ? "" : " (this file takes no comments or trailing commas)"} (line ${line}, column ${column}): ${describeParseError(first.error)}`);
  }
  return value;
}

function describeParseError(code: ParseError["error"]): string {
  const name = printParseErrorCode(code);
  const words: Record<string, string> = {
    InvalidCommentToken: "a comment",
    PropertyNameExpected: "expected a property name (a trailing comma?)",
    ValueExpected: "expected a value (a trailing comma?)",
    ColonExpected: "expected a colon",
    CommaExpected: "expected a comma",
    CloseBraceExpected: "expected }",
    CloseBracketExpected: "expected ]",
    EndOfFileExpected: "unexpected text after the end",
    UnexpectedEndOfString: "a string that never ends",
    UnexpectedEndOfComment: "a comment that never ends",
    InvalidSymbol: "an unexpected character",
  };
  return words[name] ?? name;
}
