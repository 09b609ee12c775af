// Realistic history for the benches: N questions over 90 days from 6 servers and 4 agents, every
// outcome, a tenth of them sign-in links, answers on the accepted ones. Deterministic, so runs
// compare.
import type { NewQuestion } from "../../src/main/history/store";

const DAY = 86_400_000;
const servers = ["github", "jira", "linear", "postgres", "sentry", "slack"];
const agents = ["claude-code", "cursor", "codex", "windsurf"];
const outcomes = ["accepted", "accepted", "accepted", "declined", "cancelled", "expired", "withdrawn", "refused"] as const;
const verbs = ["Deploy", "Merge", "Approve", "Delete", "Rename", "Archive", "Rollback", "Migrate"];
const things = ["the release branch", "pull request", "the staging database", "issue", "the incident", "channel", "the invoice", "schema"];

export function historyRecords(count: number, now = Date.now()): NewQuestion[] {
  const records: NewQuestion[] = [];
  for (let i = 0; i < count; i++) {
    const outcome = outcomes[i % outcomes.length];
    const received = now - Math.floor((((i * 7919) % count) / count) * 89 * DAY);
    const link = i % 10 === 0;
    records.push({
      requestId: `elc-${i}`,
      kind: link ? "authorization" : "input",
      prompt: `${verbs[i % verbs.length]} ${things[(i * 3) % things.length]} #${i}?${i % 500 === 0 ? " (quarterly compliance)" : ""}`,
      server: servers[i % servers.length],
      agent: agents[(i * 5) % agents.length],
      ...(link ? { url: `https://auth.example.com/oauth/authorize` } : {}),
      fields: link ? [] : [{ key: "target", title: "Target" }, { key: "note", title: "Note" }, { key: "token", title: "API token" }],
      outcome,
      by: outcome === "accepted" || outcome === "declined" ? "person" : "companion",
      ...(outcome === "accepted" && !link ? { answer: { target: "main", note: "ok, go ahead", token: "••••" } } : {}),
      ...(outcome === "refused" ? { reason: "Too many questions from this server" } : {}),
      receivedAt: received,
      settledAt: received + 1000 + (i % 60_000),
    });
  }
  return records;
}
