// Secret names for one server's OAuth items. The keychain only takes names of letters, digits,
// `_ . -` (SECRET_NAME), and a URL or issuer can be anything, so both are hashed; every item of a
// server shares one prefix, which is how sign-out finds them all.
import { createHash } from "node:crypto";

const PREFIX = "oauth";

function digest(text: string): string {
  return createHash("sha256").update(text).digest("hex").slice(0, 24);
}

/** The server URL as a resource: the fragment never names a different server (RFC 8707, section 2). */
function serverKey(serverUrl: string): string {
  const url = new URL(serverUrl);
  url.hash = "";
  return digest(url.href);
}

export interface ServerKeys {
  /** Every item of this server starts with this. */
  prefix: string;
  tokens(issuer: string): string;
  client(issuer: string): string;
  /** Which issuer's tokens were saved last (the transport's per-request read carries no issuer). */
  current: string;
  verifier: string;
  discovery: string;
}

export function keysFor(serverUrl: string): ServerKeys {
  const prefix = `${PREFIX}.${serverKey(serverUrl)}.`;
  return {
    prefix,
    tokens: (issuer) => `${prefix}tokens.${digest(issuer)}`,
    client: (issuer) => `${prefix}client.${digest(issuer)}`,
    current: `${prefix}current`,
    verifier: `${prefix}verifier`,
    discovery: `${prefix}discovery`,
  };
}

/** Whether a SecretStore name is one of these OAuth items (Settings lists people's own secrets only). */
export function isOAuthSecret(name: string): boolean {
  return name.startsWith(`${PREFIX}.`);
}
