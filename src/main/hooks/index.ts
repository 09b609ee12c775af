// The agents whose permission prompts the companion can answer, by their CLI name.
import { claudeCode } from "./claude-code";
import { codex } from "./codex";
import type { HookAgent } from "./types";

export const HOOK_AGENTS: readonly HookAgent[] = [claudeCode, codex];

export function hookAgent(id: string): HookAgent | undefined {
  return HOOK_AGENTS.find((agent) => agent.id === id);
}

export type { HookAgent, PermissionCall } from "./types";
export { approvalRequest, APPROVAL_KIND, type ApprovalData } from "./approval-request";
export { answerToVerdict, type Verdict } from "./verdict";
