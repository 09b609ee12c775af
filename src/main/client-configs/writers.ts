// Every client the companion can connect, in the readers' order, and lookup by the same names.
import { clientById } from "./index";
import { claudeCodeWriter } from "./write-claude-code";
import { claudeDesktopWriter } from "./write-claude-desktop";
import { codexWriter } from "./write-codex";
import { cursorWriter } from "./write-cursor";
import { geminiWriter } from "./write-gemini";
import { opencodeWriter } from "./write-opencode";
import { vscodeWriter } from "./write-vscode";
import { windsurfWriter } from "./write-windsurf";
import { zedWriter } from "./write-zed";
import type { ClientWriter } from "./writer";

export const WRITERS: readonly ClientWriter[] = [
  claudeDesktopWriter,
  claudeCodeWriter,
  cursorWriter,
  vscodeWriter,
  windsurfWriter,
  zedWriter,
  opencodeWriter,
  codexWriter,
  geminiWriter,
];

export function writerById(name: string): ClientWriter | undefined {
  const id = clientById(name)?.id;
  return WRITERS.find((w) => w.id === id);
}
