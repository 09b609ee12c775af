// The `PermissionRequest` hook input both Claude Code and Codex send on stdin (Codex adopted Claude
// Code's field names): session_id, transcript_path, cwd, hook_event_name, tool_name, tool_input,
// permission_mode, plus fields of their own (Codex: turn_id, model; Claude Code:
// permission_suggestions). Only what the question needs is read; everything else is ignored.
import type { ReadResult } from "./types";
import { isPlainObject } from "../../shared/unknown-value";

const EVENT = "PermissionRequest";
/** Longer strings in these fields are not something an agent sends; refuse rather than show. */
const MAX_FIELD = 4096;

function optionalString(input: Record<string, unknown>, key: string): string | undefined {
  const value = input[key];
  return typeof value === "string" && value.length <= MAX_FIELD ? value : undefined;
}

export function readPermissionRequest(input: unknown): ReadResult {
  if (!isPlainObject(input)) {
    return { ok: false, reason: "the hook input is not a JSON object" };
  }
  const fields = input;
  // Wired to another event (PreToolUse, say), our answer would be in the wrong schema: stay out.
  if (fields.hook_event_name !== EVENT) {
    return { ok: false, reason: `hook_event_name is ${JSON.stringify(fields.hook_event_name)}, not "${EVENT}"; install this hook for PermissionRequest only` };
  }
  const tool = fields.tool_name;
  if (typeof tool !== "string" || tool === "" || tool.length > 256) {
    return { ok: false, reason: "tool_name is missing or not a short string" };
  }
  return {
    ok: true,
    call: {
      tool,
      toolInput: fields.tool_input ?? {},
      cwd: optionalString(fields, "cwd"),
      sessionId: optionalString(fields, "session_id"),
      permissionMode: optionalString(fields, "permission_mode"),
    },
  };
}

/** `{ hookSpecificOutput: { hookEventName: "PermissionRequest", decision } }`, the shape both agents read. */
export function permissionDecision(decision: { behavior: "allow" } | { behavior: "deny"; message: string }): string {
  return JSON.stringify({ hookSpecificOutput: { hookEventName: EVENT, decision } });
}
