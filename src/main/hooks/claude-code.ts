// Claude Code's `PermissionRequest` hook (Claude Code ≥ 2.0.45; hooks reference at
// code.claude.com/docs/en/hooks). Input on stdin: session_id, transcript_path, cwd,
// permission_mode, hook_event_name "PermissionRequest", tool_name, tool_input, optional
// permission_suggestions. Output on stdout, exit 0:
//   { "hookSpecificOutput": { "hookEventName": "PermissionRequest",
//       "decision": { "behavior": "allow" | "deny", "message"?, "updatedInput"?, "interrupt"? } } }
// Exit 0 with no output leaves the decision to Claude Code's own dialog. Exit 2 would DENY, so the
// hook never uses it. A command hook's `timeout` setting defaults to 600 s in current docs (60 s in
// older releases); our own deadline stays under the older, shorter one.
import type { HookAgent } from "./types";
import { permissionDecision, readPermissionRequest } from "./permission-request";

export const claudeCode: HookAgent = {
  id: "claude-code",
  label: "Claude Code",
  read: readPermissionRequest,
  allow: () => permissionDecision({ behavior: "allow" }),
  deny: (message) => permissionDecision({ behavior: "deny", message }),
};
