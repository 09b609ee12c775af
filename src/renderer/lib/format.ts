// The page's words for times, who asks, and rules: pure functions the views and stores share.
import type { RuleAction, RuleScope, RuleView } from "../../shared/rules";

/** "just now", "3 min ago", "2 h ago", or a date for older questions. */
export function relativeTime(then: number, now: number): string {
  const seconds = Math.max(0, Math.round((now - then) / 1000));
  if (seconds < 45) return "just now";
  const minutes = Math.round(seconds / 60);
  if (minutes < 60) return `${minutes} min ago`;
  const hours = Math.round(minutes / 60);
  if (hours < 24) return `${hours} h ago`;
  return new Date(then).toLocaleDateString();
}

/** "github" or "github for claude-code"; who asks, in one phrase. */
export function askerText(source: { server?: string; agent?: string }): string {
  const agents = agentText(source.agent);
  // An agent's own question (POST /v1/requests) has no server: the agent is the one asking.
  if (!source.server) return agents || "an agent";
  return agents ? `${source.server} for ${agents}` : source.server;
}

/**
 * The agent(s) in honest words. Main names every agent with a call in flight ("cursor,
 * claude-code") when a pushed question cannot be tied to one call: that is one of them, not all.
 */
export function agentText(agent: string | undefined): string {
  if (!agent) return "";
  const names = agent
    .split(",")
    .map((n) => n.trim())
    .filter(Boolean);
  if (names.length <= 1) return names[0] ?? "";
  return `${names.slice(0, -1).join(", ")} or ${names[names.length - 1]}`;
}

/** "expires in 45 s", "expires in 4 min", "expired"; "" when the question does not expire. */
export function expiryText(expiresAt: string | undefined, now: number): string {
  if (!expiresAt) return "";
  const at = Date.parse(expiresAt);
  if (!Number.isFinite(at)) return "";
  const seconds = Math.round((at - now) / 1000);
  if (seconds <= 0) return "expiring";
  if (seconds < 60) return `expires in ${seconds} s`;
  const minutes = Math.floor(seconds / 60);
  if (minutes < 60) return `expires in ${minutes} min`;
  const hours = Math.floor(minutes / 60);
  if (hours < 48) return `expires in ${hours} h`;
  return `expires ${new Date(at).toLocaleDateString()}`;
}

export function scopeText(scope: RuleScope): string {
  return scope === "session" ? "Until the companion quits" : "Until you remove it";
}

export function scopeChoiceText(scope: RuleScope): string {
  return scope === "session" ? "For this session" : "Until I remove it";
}

export function actionChoiceText(action: RuleAction): string {
  return action === "accept" ? "Accept with these values" : "Decline";
}

export function usesText(rule: Pick<RuleView, "uses">): string {
  return rule.uses === 0 ? "Not used yet" : rule.uses === 1 ? "Used once" : `Used ${rule.uses} times`;
}
