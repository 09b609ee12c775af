// Maps a server's CallToolResult onto one tool output, the same whichever server answered:
// isError ⇒ error with the joined text; structuredContent ⇒ its JSON; else the joined text parts.
// A result out of the JSON bounds (limits.ts) never reaches a caller: it becomes an error result
// saying why, so nothing downstream (the gateway's reply, a page's event) tries to serialise it.
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

function refusedResult(server: string, tool: string, problem: string): ToolOutput {
  const output = `${server}: the result of ${tool} was refused: ${problem}`;
  return { output, isError: true, metadata: { server, tool, result: { content: [{ type: "text", text: output }], isError: true } } };
}

export function toToolOutput(server: string, tool: string, result: Record<string, unknown>): ToolOutput {
  const problem = jsonBoundsProblem(result);
  if (problem) return refusedResult(server, tool, problem);
  const metadata = { server, tool, result };
  if (result.isError === true) return { output: joinText(result.content), isError: true, metadata };
  if (result.structuredContent !== undefined && result.structuredContent !== null) {
    const json = tryStringify(result.structuredContent);
    if (json === undefined) return refusedResult(server, tool, "its structured content cannot be written as JSON");
    return { output: json, isError: false, metadata };
  }
  return { output: joinText(result.content), isError: false, metadata };
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
