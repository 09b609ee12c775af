// What a tool call would do, in the terms a person judges it by: the exact command for a shell
// tool, the files and the size of the change for an edit, the server and tool for an MCP call,
// else the tool name and its arguments. Tool names are those Claude Code and Codex document.
import { applyPatchFiles, countLines, lineChange, type FileDiff } from "./diff-stat";
import { asPlainObject } from "../../shared/unknown-value";

/** A command longer than this is not shown whole, and a command not shown whole is not allowable. */
const MAX_COMMAND_CHARS = 16_000;
/** The one-line summary in the question list and notifications. */
const MAX_SUMMARY_CHARS = 200;

export type Action =
  | { kind: "shell"; command: string; truncated?: true; description?: string }
  | { kind: "edit"; files: FileDiff[]; description?: string }
  | { kind: "mcp"; server: string; tool: string }
  | { kind: "other"; description?: string };

// Claude Code: Bash, PowerShell. Codex: shell, exec_command, unified_exec, local_shell (and "Bash"
// in its PermissionRequest payloads).
const SHELL_TOOLS = new Set(["Bash", "PowerShell", "shell", "exec_command", "unified_exec", "local_shell", "container.exec"]);

function str(value: unknown): string | undefined {
  return typeof value === "string" ? value : undefined;
}

export function truncate(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, max - 1)}…`;
}

/** A shell word as POSIX sh would need it quoted, for commands given as argv arrays. */
function shellWord(word: string): string {
  return /^[A-Za-z0-9_@%+=:,./-]+$/.test(word) ? word : `'${word.replace(/'/g, `'\\''`)}'`;
}

function shellCommand(input: Record<string, unknown>): string | undefined {
  const command = input.command ?? input.cmd;
  if (typeof command === "string") return command;
  if (Array.isArray(command) && command.length > 0 && command.every((w) => typeof w === "string")) {
    return (command as string[]).map(shellWord).join(" ");
  }
  return undefined;
}

function editFiles(tool: string, input: Record<string, unknown>): FileDiff[] | undefined {
  const path = str(input.file_path) ?? str(input.notebook_path) ?? str(input.path);
  switch (tool) {
    case "Edit": {
      if (!path) return undefined;
      return [{ path, op: "update", ...lineChange(str(input.old_string) ?? "", str(input.new_string) ?? "") }];
    }
    case "MultiEdit": {
      if (!path || !Array.isArray(input.edits)) return undefined;
      let added = 0;
      let removed = 0;
      for (const edit of input.edits) {
        const e = asPlainObject(edit);
        const change = lineChange(str(e.old_string) ?? "", str(e.new_string) ?? "");
        added += change.added;
        removed += change.removed;
      }
      return [{ path, op: "update", added, removed }];
    }
    case "Write": {
      if (!path) return undefined;
      return [{ path, op: "write", added: countLines(str(input.content) ?? "") }];
    }
    case "NotebookEdit": {
      if (!path) return undefined;
      return [{ path, op: "update", added: countLines(str(input.new_source) ?? "") }];
    }
    case "apply_patch": {
      // Codex sends the patch envelope as tool_input.command (or input/patch in other surfaces).
      const patch = str(input.command) ?? str(input.input) ?? str(input.patch);
      return patch === undefined ? undefined : applyPatchFiles(patch);
    }
    default:
      return undefined;
  }
}

/** `mcp__<server>__<tool>`, the name both agents give MCP tools. */
function mcpName(tool: string): { server: string; tool: string } | undefined {
  const match = /^mcp__(.+?)__(.+)$/.exec(tool);
  return match ? { server: match[1], tool: match[2] } : undefined;
}

export function describeAction(tool: string, toolInput: unknown): Action {
  const input = asPlainObject(toolInput);
  const description = str(input.description)?.slice(0, 2000);
  const withDescription = <T extends object>(action: T) => (description ? { ...action, description } : action);
  if (SHELL_TOOLS.has(tool)) {
    const command = shellCommand(input);
    if (command !== undefined) {
      return command.length > MAX_COMMAND_CHARS
        ? withDescription({ kind: "shell" as const, command: command.slice(0, MAX_COMMAND_CHARS), truncated: true as const })
        : withDescription({ kind: "shell" as const, command });
    }
  }
  const files = editFiles(tool, input);
  if (files && files.length > 0) return withDescription({ kind: "edit" as const, files });
  const mcp = mcpName(tool);
  if (mcp) return { kind: "mcp", ...mcp };
  return withDescription({ kind: "other" as const });
}

function signed(file: { added: number; removed?: number }): string {
  return file.removed === undefined ? `+${file.added}` : `+${file.added} −${file.removed}`;
}

/** "+N −M lines" over all files (−M left out when a file's losses are unknown). */
function diffSummary(files: FileDiff[]): string {
  const added = files.reduce((n, f) => n + f.added, 0);
  const known = files.every((f) => f.removed !== undefined);
  const removed = files.reduce((n, f) => n + (f.removed ?? 0), 0);
  return `${signed({ added, removed: known ? removed : undefined })} lines`;
}

/** A compact, bounded rendering of arguments for tools we have no special view for. */
function compactJson(value: unknown, max: number): string {
  let text: string;
  try {
    text = JSON.stringify(value) ?? "";
  } catch {
    text = "(arguments that cannot be shown)";
  }
  return truncate(text, max);
}

/** One line: the command, the file(s) and change size, the MCP server and tool, or tool + args. */
export function summarize(tool: string, toolInput: unknown, action: Action): string {
  switch (action.kind) {
    case "shell":
      return truncate(action.command.replace(/\s*\n\s*/g, " ⏎ "), MAX_SUMMARY_CHARS);
    case "edit": {
      const what = action.files.length === 1 ? action.files[0].path : `${action.files.length} files`;
      return truncate(`${what} (${diffSummary(action.files)})`, MAX_SUMMARY_CHARS);
    }
    case "mcp":
      return truncate(`${action.tool} on MCP server ${action.server}`, MAX_SUMMARY_CHARS);
    default:
      return truncate(`${tool} ${compactJson(toolInput, MAX_SUMMARY_CHARS)}`, MAX_SUMMARY_CHARS);
  }
}
