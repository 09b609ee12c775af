// How the companion's own gateway says "wrong token" in the standard's words, so standard clients
// (mcp-remote, the Inspector, SDK-based agents) report a token problem instead of starting OAuth
// against the companion: a Bearer challenge with error="invalid_token" on every 401 from /mcp, and
// OAuth discovery paths that answer with a clear JSON error. The protected-resource paths answer 404
// (this resource has no OAuth metadata); the authorization-server paths answer 501, a status the
// SDKs' discovery stops at, so no client goes on to register itself (a 4xx makes them try the
// next well-known path and then POST /register).
import type { IncomingMessage, ServerResponse } from "node:http";
import type { Route } from "../http/listener";

export const TOKEN_HELP =
  "The Toolnexus Companion gateway takes its own bearer token, not OAuth: the token is missing, wrong or was rotated. " +
  "Copy the current one from the companion's Settings (or run `toolnexus-companion token`) into the agent's config.";

/** The WWW-Authenticate value for a 401 from the gateway (RFC 6750, section 3). */
export function gatewayChallenge(): string {
  return `Bearer realm="toolnexus-companion", error="invalid_token", error_description="${TOKEN_HELP.replace(/["\\]/g, "'")}"`;
}

/**
 * The message of a refusal of /mcp. A 401 also says where the token is: clients without OAuth (the
 * Inspector CLI) print only this body, never the WWW-Authenticate header.
 */
export function refusalMessage(status: number, message: string): string {
  return status === 401 ? `${message} ${TOKEN_HELP}` : message;
}

const PROTECTED_RESOURCE = "/.well-known/oauth-protected-resource";
const AUTHORIZATION_SERVER = ["/.well-known/oauth-authorization-server", "/.well-known/openid-configuration"];

function under(path: string, prefix: string): boolean {
  return path === prefix || path.startsWith(`${prefix}/`);
}

/** The answer for an OAuth discovery path, or undefined when the path is not one. */
export function discoveryRefusal(pathname: string): { status: number; body: { error: string; error_description: string } } | undefined {
  if (under(pathname, PROTECTED_RESOURCE)) {
    return { status: 404, body: { error: "invalid_token", error_description: `No OAuth here. ${TOKEN_HELP}` } };
  }
  if (AUTHORIZATION_SERVER.some((p) => under(pathname, p))) {
    return { status: 501, body: { error: "invalid_token", error_description: `The companion is not an OAuth authorization server. ${TOKEN_HELP}` } };
  }
  return undefined;
}

/**
 * The discovery paths as a listener route. Mounted without the bearer check (a client discovering
 * OAuth has no token to send), after the Host and Origin checks; GET and HEAD only.
 */
export function discoveryRoute(): Route {
  return {
    prefix: "/.well-known",
    public: true,
    handle(req: IncomingMessage, res: ServerResponse) {
      const pathname = new URL(req.url ?? "/", "http://127.0.0.1").pathname;
      const refusal = discoveryRefusal(pathname) ?? { status: 404, body: { error: "not_found", error_description: "Nothing is served here." } };
      const text = JSON.stringify(refusal.body);
      res.writeHead(refusal.status, { "content-type": "application/json; charset=utf-8", "cache-control": "no-store", "x-content-type-options": "nosniff" });
      res.end(req.method === "HEAD" ? undefined : text);
    },
  };
}
