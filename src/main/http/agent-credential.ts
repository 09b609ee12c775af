// Per-agent credentials: a token that names one agent, derived from the gateway token, so the
// companion knows which agent is calling from the credential itself rather than from what the
// caller says about itself (X-Agent-Name, an MCP clientInfo). An agent connected by the companion
// (`agents connect`, the `connect` shim, the permission hooks) sends its own; another agent's
// questions are then not its to see or withdraw, whatever name it claims.
//
// `tnca1.<agent>.<mac>`, mac = HMAC-SHA256(gateway token, context + agent), base64url. Derived, not
// stored: rotating the gateway token retires every agent credential with it, and the companion
// keeps no list to lose or leak. The context keeps this MAC apart from the companion's proof
// (companion-proof.ts), made with the same key. The guard (guard.ts) takes them on the gateway's
// routes only: the page and its WebSocket answer for the person, and want the token itself.
import { createHmac, timingSafeEqual } from "node:crypto";

const PREFIX = "tnca1.";
const CONTEXT = "toolnexus-companion-agent-credential-v1\n";

/** An agent's name in a credential: what `agents connect` and the hooks use (cursor, claude-code, …). */
export const AGENT_CREDENTIAL_NAME = /^[a-z0-9][a-z0-9._-]{0,63}$/;

function mac(gatewayToken: string, agent: string): string {
  return createHmac("sha256", gatewayToken).update(CONTEXT + agent).digest("base64url");
}

export function agentCredential(gatewayToken: string, agent: string): string {
  if (!AGENT_CREDENTIAL_NAME.test(agent)) throw new Error(`"${agent}" is not an agent name a credential can carry (lowercase letters, digits, . _ -; at most 64)`);
  return `${PREFIX}${agent}.${mac(gatewayToken, agent)}`;
}

/** The agent a presented bearer credential names, or undefined when it is not one this token made. */
export function agentOfCredential(gatewayToken: string, presented: string): string | undefined {
  if (!presented.startsWith(PREFIX) || presented.length > 200) return undefined;
  const rest = presented.slice(PREFIX.length);
  const dot = rest.lastIndexOf(".");
  if (dot <= 0) return undefined;
  const agent = rest.slice(0, dot);
  if (!AGENT_CREDENTIAL_NAME.test(agent)) return undefined;
  const expected = Buffer.from(mac(gatewayToken, agent));
  const given = Buffer.from(rest.slice(dot + 1));
  return given.length === expected.length && timingSafeEqual(given, expected) ? agent : undefined;
}
