// Short human texts shared by the tray and notifications.
import type { Asker } from "../../shared/types";

export function truncate(text: string, max: number): string {
  const flat = text.replace(/\s+/g, " ").trim();
  return flat.length <= max ? flat : `${flat.slice(0, max - 1).trimEnd()}…`;
}

/** "github", "github (via claude-code)", "claude-code", or "an agent". */
export function askerLabel(source: Asker): string {
  if (source.server && source.agent) return `${source.server} (via ${source.agent})`;
  return source.server ?? source.agent ?? "an agent";
}

export function questionsText(count: number): string {
  return count === 1 ? "1 question" : `${count} questions`;
}
