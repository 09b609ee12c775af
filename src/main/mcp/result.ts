// Maps a server's CallToolResult onto the uniform tool output of the seeds:
// isError ⇒ error with the joined text; structuredContent ⇒ its JSON; else the joined text parts.
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

export function toToolOutput(server: string, tool: string, result: Record<string, unknown>): ToolOutput {
  const metadata = { server, tool, result };
  if (result.isError === true) return { output: joinText(result.content), isError: true, metadata };
  if (result.structuredContent !== undefined && result.structuredContent !== null) {
    return { output: JSON.stringify(result.structuredContent), isError: false, metadata };
  }
  return { output: joinText(result.content), isError: false, metadata };
}
