// What a server in trouble needs from the person, in plain words, read from its state and the
// error main reported (src/main/mcp/connection/connection.ts and config.ts word those errors). Pure, so the
// wording is tested without a page.
import type { ServerView } from "../../shared/types";

export interface NextStep {
  /** What the supervisor is doing about it ("Restarting (attempt 2), next try in 5 s"). */
  status?: string;
  /** One short line: what is wrong ("Needs sign-in", "Is it installed?"), when known. */
  headline?: string;
  /** What to do about it. */
  step: string;
  /** A button beside the words: sign in, or open Settings → Secrets. */
  action?: "sign-in" | "open-settings";
}

/** States that need the person: they come first in the Servers view. */
const TROUBLE: Record<string, number> = { failed: 0, "crash-loop": 0, "needs-sign-in": 0, restarting: 0, connecting: 1, connected: 2, disabled: 3 };

/** Servers in trouble first, then connecting, connected, disabled; config order within each. */
export function serverOrder(servers: readonly ServerView[]): ServerView[] {
  return servers
    .map((server, i) => ({ server, i }))
    .sort((a, b) => (TROUBLE[a.server.state] ?? 0) - (TROUBLE[b.server.state] ?? 0) || a.i - b.i)
    .map(({ server }) => server);
}

export function inTrouble(server: ServerView): boolean {
  return TROUBLE[server.state] === 0;
}

/** A remote server (it may hold sign-in tokens to forget). */
export function isRemote(server: ServerView): boolean {
  return server.transport === "streamable-http" || server.transport === "sse" || server.state === "needs-sign-in";
}

/** "in 12 s", "in 3 min", "now". */
export function retryIn(at: number | undefined, now: number): string {
  if (at === undefined) return "soon";
  const seconds = Math.ceil((at - now) / 1000);
  if (seconds <= 0) return "now";
  if (seconds < 90) return `in ${seconds} s`;
  return `in ${Math.round(seconds / 60)} min`;
}

/** The cause behind an error, in words a person acts on; undefined when the error says nothing we know. */
function cause(error: string): NextStep | undefined {
  let m = /command "([^"]+)" was not found/.exec(error);
  if (m) return { headline: `Exits at start: “${m[1]}” not found — is it installed?`, step: "Install it, or fix the command in the config file, then Retry." };
  m = /command "([^"]+)" is not executable/.exec(error);
  if (m) return { headline: "Cannot run the command", step: `“${m[1]}” is not executable. Check the path in the config file, then Retry.` };
  m = /needs the secret "([^"]+)"/.exec(error);
  if (m) return { headline: `Missing secret ${m[1]}`, step: `Set the secret “${m[1]}” in Settings → Secrets, then Retry.`, action: "open-settings" };
  m = /needs the environment variable ([A-Za-z_][A-Za-z0-9_]*)/.exec(error);
  if (m)
    return {
      headline: `Missing variable ${m[1]}`,
      step: `The environment variable ${m[1]} is not set. Set it where the companion starts, or keep the value as a secret in Settings → Secrets and use \${secret:NAME} in the config, then Retry.`,
      action: "open-settings",
    };
  m = /needs the input "([^"]+)"/.exec(error);
  if (m) return { headline: `Waiting for “${m[1]}”`, step: `The server needs a value for “${m[1]}”. Answer its question in the Inbox, or write the value in the config file, then Retry.` };
  if (/\b401\b|unauthori[sz]ed/i.test(error)) return { headline: "Needs sign-in", step: "The server wants you to sign in.", action: "sign-in" };
  if (/\b403\b|forbidden/i.test(error)) return { headline: "Access refused", step: "The server refused the credentials it was given. Check the token or secret it uses, then Retry." };
  m = /(?:ENOTFOUND|EAI_AGAIN)\s+([^\s,)]+)/.exec(error);
  if (m) return { headline: `Can't reach ${m[1]} — check the network or the URL`, step: "Then Retry." };
  m = /ECONNREFUSED\s+([^\s,)]+)/.exec(error);
  if (m) return { headline: `Nothing answers at ${m[1]} — is the server running, and is the URL right?`, step: "Then Retry." };
  if (/ECONNREFUSED|ENOTFOUND|EAI_AGAIN|ECONNRESET|ETIMEDOUT|fetch failed/i.test(error)) return { headline: "Can't reach the server — check the network or the URL", step: "Then Retry." };
  if (/got no answer within|timed out/i.test(error)) return { headline: "No answer in time", step: "The server started but did not answer. Is it an MCP server, and is it the right command? Then Retry." };
  return undefined;
}

/** The next step for a server that needs the person, or undefined when it is fine. */
export function nextStep(server: ServerView, now: number): NextStep | undefined {
  const error = server.error ?? "";
  switch (server.state) {
    case "needs-sign-in":
      return { headline: "Needs sign-in", step: "Sign in to use this server: a sign-in question opens in the Inbox.", action: "sign-in" };
    case "restarting": {
      const attempt = server.attempt ? ` (attempt ${server.attempt})` : "";
      const found = cause(error);
      return { ...found, status: `Restarting${attempt}, next try ${retryIn(server.nextRetryAt, now)}`, step: found?.step ?? "It stopped; the companion starts it again by itself." };
    }
    case "crash-loop": {
      const found = cause(error);
      // "Crash" is for a local process; a remote server fails to answer, it does not crash.
      const status = isRemote(server) ? "Stopped after repeated failures" : "Stopped after repeated crashes";
      return { ...found, status, step: found?.step ?? "It kept failing, so the companion left it stopped. Fix what its last error says, then Retry." };
    }
    case "failed":
      return cause(error) ?? { headline: "Could not start", step: "Check its entry in the config file against what the error says, then Retry." };
    default:
      return undefined;
  }
}

/** The entry main lists when the config file itself does not parse (core.ts CONFIG_ERROR_ENTRY). */
export const CONFIG_ERROR_ENTRY = "MCP config";

/** Does a tool match the search (its names, title, description; case-insensitive)? */
export function toolMatches(tool: { name: string; tool: string; title?: string; description: string }, query: string): boolean {
  const q = query.trim().toLowerCase();
  if (!q) return true;
  return [tool.tool, tool.name, tool.title ?? "", tool.description].some((text) => text.toLowerCase().includes(q));
}
