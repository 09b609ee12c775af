// A server's CallToolResult as callers get it, and the text a page is shown of it.
// A result out of the JSON bounds (limits.ts) never reaches a caller: it becomes an error result
// saying why, so nothing downstream (the gateway's reply, a page's event) tries to serialise it.
// The page's text is one output whichever server answered: isError ⇒ an error with the joined
// text; structuredContent ⇒ its JSON; else the joined text parts.
import type { CallToolResult } from "@modelcontextprotocol/client";
import { jsonBoundsProblem, tryStringify } from "../base/json-bounds";
import { MAX_RESULT_BYTES_TO_PAGE } from "../../shared/limits";
import type { ToolOutput } from "./types";

interface ContentPart {
  type?: string;
  text?: string;
}

export function joinText(content: unknown): string {
  if (!Array.isArray(content)) return "";
  return (content as ContentPart[])
    .filter((part) => part && part.type === "text" && typeof part.text === "string")
    .map((part) => part.text as string)
    .join("\n");
}

function hasStructured(result: CallToolResult): boolean {
  return result.structuredContent !== undefined && result.structuredContent !== null;
}

/** Why a result is refused, or undefined when it is within bounds (a non-error's structured content must be JSON). */
function resultProblem(result: CallToolResult): string | undefined {
  const problem = jsonBoundsProblem(result);
  if (problem) return problem;
  if (result.isError !== true && hasStructured(result) && tryStringify(result.structuredContent) === undefined) return "its structured content cannot be written as JSON";
  return undefined;
}

/** The result as the server gave it, or, out of bounds, an error result saying why. */
export function boundedResult(server: string, tool: string, result: CallToolResult): CallToolResult {
  const problem = resultProblem(result);
  if (!problem) return result;
  return { content: [{ type: "text", text: `${server}: the result of ${tool} was refused: ${problem}` }], isError: true };
}

/** The text of a (bounded) result: what a page shows, and what an agent gets of a result without content. */
export function toToolOutput(result: CallToolResult): ToolOutput {
  if (result.isError === true) return { output: joinText(result.content), isError: true };
  if (hasStructured(result)) return { output: tryStringify(result.structuredContent) ?? joinText(result.content), isError: false };
  return { output: joinText(result.content), isError: false };
}

/**
 * The output as a page receives it: at most MAX_RESULT_BYTES_TO_PAGE bytes of UTF-8, cut on a
 * character boundary, with a note saying how much was left out.
 */
export function outputForPage(output: string, max = MAX_RESULT_BYTES_TO_PAGE): string {
  // A string of n UTF-16 units is at most 3n bytes: most outputs skip the byte count entirely.
  if (output.length * 3 <= max) return output;
  const bytes = Buffer.byteLength(output);
  if (bytes <= max) return output;
  let cut = Buffer.from(output).subarray(0, max).toString("utf8");
  // A multi-byte character split at the edge decodes as U+FFFD; drop it.
  if (cut.endsWith("\uFFFD")) cut = cut.slice(0, -1);
  return `${cut}\n\n[output truncated: showing ${Buffer.byteLength(cut)} of ${bytes} bytes]`;
}
