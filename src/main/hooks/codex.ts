// Codex's `PermissionRequest` hook (openai/codex PR #17563, April 2026; developers.openai.com/codex/hooks;
// schema codex-rs/hooks/schema/generated/permission-request.command.{input,output}.schema.json).
// Input on stdin: session_id, turn_id, transcript_path, cwd, hook_event_name "PermissionRequest",
// model, permission_mode, tool_name ("Bash" for shell, unified exec and network approvals; later
// also MCP tools as mcp__server__tool and apply_patch), tool_input { command, description? }.
// Output: the same `hookSpecificOutput.decision { behavior: "allow" | "deny", message? }` as Claude
// Code. Codex's output schema has additionalProperties: false and fails closed on `updatedInput`,
// `updatedPermissions` or `interrupt: true`, so we send nothing but behavior and message. A quiet
// hook (exit 0, no output) or an invalid one falls back to Codex's own approval prompt.
import type { HookAgent } from "./types";
import { permissionDecision, readPermissionRequest } from "./permission-request";

export const codex: HookAgent = {
  id: "codex",
  label: "Codex",
  read: readPermissionRequest,
  allow: () => permissionDecision({ behavior: "allow" }),
  deny: (message) => permissionDecision({ behavior: "deny", message }),
};
