// One agent permission prompt as one Request (shared/types.ts) of kind "approval": who asks (agent, project
// folder), what exactly would run, and the tool's own arguments for the curious.
import { randomUUID } from "node:crypto";
import type { Request } from "../../shared/types";
import { jsonBoundsProblem, tryStringify } from "../base/json-bounds";
import { describeAction, summarize, truncate, type Action } from "./action";
import type { PermissionCall } from "./types";

export const APPROVAL_KIND = "approval";
/** The tool's arguments ride along only up to this size; the action already says what matters. */
const MAX_APPROVAL_INPUT_BYTES = 64 * 1024;
const MAX_PROMPT_CHARS = 300;

export interface ApprovalData extends Record<string, unknown> {
  agent: string;
  /** The agent's working directory, when it said. */
  project?: string;
  tool: string;
  summary: string;
  action: Action;
  /** The tool's arguments as sent, when small enough; `inputOmitted` says when they were not. */
  input?: unknown;
  inputOmitted?: true;
  session?: string;
  permissionMode?: string;
}

function promptFor(agent: string, tool: string, action: Action, summary: string): string {
  switch (action.kind) {
    case "shell":
      return truncate(`Allow ${agent} to run: ${summary}?`, MAX_PROMPT_CHARS);
    case "edit": {
      const verb = action.files.length === 1 && action.files[0].op === "write" ? "write" : "edit";
      return truncate(`Allow ${agent} to ${verb} ${summary}?`, MAX_PROMPT_CHARS);
    }
    case "mcp":
      return truncate(`Allow ${agent} to call ${action.tool} on MCP server ${action.server}?`, MAX_PROMPT_CHARS);
    default:
      return truncate(`Allow ${agent} to use ${tool}?`, MAX_PROMPT_CHARS);
  }
}

export function approvalRequest(agent: string, call: PermissionCall, options: { expiresAt?: Date; id?: string } = {}): Request & { data: ApprovalData } {
  const action = describeAction(call.tool, call.toolInput);
  const summary = summarize(call.tool, call.toolInput, action);
  const data: ApprovalData = { agent, tool: call.tool, summary, action };
  if (call.cwd) data.project = call.cwd;
  const json = jsonBoundsProblem(call.toolInput) === undefined ? tryStringify(call.toolInput) : undefined;
  if (json !== undefined && Buffer.byteLength(json) <= MAX_APPROVAL_INPUT_BYTES) data.input = call.toolInput;
  else data.inputOmitted = true;
  if (call.sessionId) data.session = call.sessionId;
  if (call.permissionMode) data.permissionMode = call.permissionMode;
  const request: Request & { data: ApprovalData } = {
    id: options.id ?? `hook-${randomUUID()}`,
    kind: APPROVAL_KIND,
    prompt: promptFor(agent, call.tool, action, summary),
    data,
  };
  if (options.expiresAt) request.expiresAt = options.expiresAt.toISOString();
  return request;
}
