// Which rule, if any, answers a question that just arrived. A form rule needs the same server, the
// same tool when the rule knows it (a rule made from a question that did not say which tool
// answers that server's same form from any tool), and the same schema fingerprint; an approval
// rule needs the exact same request. The newest matching rule wins.
import type { Rule } from "../../shared/rules";
import type { PendingEntry } from "../../shared/types";
import { schemaFingerprint } from "./fingerprint";
import { approvalKey } from "./make";

export function matchRule(rules: readonly Rule[], entry: PendingEntry): Rule | undefined {
  const { request, source } = entry;
  let found: Rule | undefined;
  if (request.kind === "input" && request.url === undefined && source.server) {
    let fingerprint: string | undefined | null = null;
    for (const rule of rules) {
      if (rule.type !== "form" || rule.server !== source.server) continue;
      if (rule.tool !== undefined && rule.tool !== source.tool) continue;
      // Computed once, and only when some rule is for this server.
      if (fingerprint === null) fingerprint = schemaFingerprint(request.data?.schema);
      if (fingerprint === undefined || rule.fingerprint !== fingerprint) continue;
      if (!found || rule.createdAt >= found.createdAt) found = rule;
    }
    return found;
  }
  if (request.kind === "approval") {
    const key = rules.some((r) => r.type === "approval") ? approvalKey(entry) : undefined;
    if (key === undefined) return undefined;
    for (const rule of rules) {
      if (rule.type === "approval" && rule.key === key && (!found || rule.createdAt >= found.createdAt)) found = rule;
    }
  }
  return found;
}
