// The transports a server is reached over: its process's pipes (stdio), or, for a remote server,
// streamable HTTP or the older SSE transport, each with the fetch it needs (fetch-middleware.ts):
// every response body bounded (bounded-fetch.ts: a cut closes the connection), the configured
// headers on SSE's standing GET too.
import { SSEClientTransport, StreamableHTTPClientTransport, type OAuthClientProvider, type Transport } from "@modelcontextprotocol/client";
import type { LocalServerConfig } from "../config/config";
import { boundedFetch, type MessageTooLargeError } from "./bounded-fetch";
import { composeFetch, quietSignals, seeingChallenges, withHeaders, type FetchMiddleware } from "./fetch-middleware";
import { GroupStdioTransport } from "./stdio-transport";

export interface RemoteSetting {
  url: URL;
  /** The configured headers, expanded: on every request. */
  headers: Record<string, string>;
  /** OAuth for the server, unless a configured header already authorizes (authProviderFor). */
  authProvider?: OAuthClientProvider;
  /** A response body was cut at its bound. */
  onTooLarge(error: MessageTooLargeError): void;
}

/** The global fetch, read at each request. */
const globalFetch: typeof fetch = (input, init) => fetch(input, init);

export function stdioTransport(config: LocalServerConfig, env: Record<string, string>, onTooLarge: (error: Error) => void): GroupStdioTransport {
  return new GroupStdioTransport({ command: config.command, args: config.args, env, cwd: config.cwd, onTooLarge });
}

/**
 * OAuth only where the person did not configure an Authorization header: that header is their
 * chosen credential, and a 401 then means it is wrong, not "start OAuth".
 */
export function authProviderFor(headers: Record<string, string>, provider: OAuthClientProvider | undefined): OAuthClientProvider | undefined {
  return Object.keys(headers).some((name) => name.toLowerCase() === "authorization") ? undefined : provider;
}

/** Every response body bounded; the transport's long-lived signal kept from warning on each request. */
function bodies(setting: RemoteSetting): FetchMiddleware {
  return composeFetch(boundedFetch({ onTooLarge: (error) => setting.onTooLarge(error) }), quietSignals);
}

/** `challenged` is told of a 401 (sign-in wanted: the server does speak streamable HTTP). */
export function streamableTransport(setting: RemoteSetting, challenged: () => void): StreamableHTTPClientTransport {
  const fetch = composeFetch(seeingChallenges(challenged), bodies(setting))(globalFetch);
  return new StreamableHTTPClientTransport(setting.url, { requestInit: { headers: setting.headers }, fetch, authProvider: setting.authProvider });
}

export function sseTransport(setting: RemoteSetting): SSEClientTransport {
  const fetch = composeFetch(withHeaders(setting.headers), bodies(setting))(globalFetch);
  return new SSEClientTransport(setting.url, { requestInit: { headers: setting.headers }, eventSourceInit: { fetch }, authProvider: setting.authProvider });
}

/** Redeems a sign-in's callback on the transport that was refused (it knows the scope it asked for). */
export async function finishAuthOn(transport: Transport | undefined, params: URLSearchParams): Promise<void> {
  if (transport instanceof StreamableHTTPClientTransport || transport instanceof SSEClientTransport) return transport.finishAuth(params);
  throw new Error("no remote transport to finish the sign-in on");
}
