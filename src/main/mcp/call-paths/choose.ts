// Which call path a connection uses (call-path.ts), picked once, right after it connected: the
// raw paths only on a legacy-era session (revision ids are ISO dates: before 2026-07-28
// tools/call is a plain JSON-RPC request), where the wire is ours to write — the stdio pipe,
// or a streamable HTTP endpoint whose requests need no DPoP proof (the SDK signs each one).
// The 2026-07-28 wire carries more than a JSON-RPC request, and SSE answers on its standing
// stream: both stay with the SDK.
import { StreamableHTTPClientTransport, type Client, type OAuthClientProvider, type Transport } from "@modelcontextprotocol/client";
import type { CallPath } from "./call-path";
import { fastTarget, httpFastPath } from "./http-fast";
import { sdkPath } from "./sdk";
import { RawCalls, stdioRawPath } from "./stdio-raw";

export interface PathChoice {
  /** The transport the client connected over (ServerStatus.transport). */
  kind: "stdio" | "streamable-http" | "sse";
  /** The connected client: its negotiated version decides, and it is the SDK path. */
  client: Client;
  transport: Transport;
  /** The configured server name, for errors. */
  server: string;
  /** The longest a call may take in all (LoadOptions.maxWaitMs). */
  maxWait: number;
  /** Whether a tool's calls may skip the SDK (read per call: a tools list change changes it). */
  plain(tool: string): boolean;
  /** Streamable HTTP: where a POST of our own goes, with the configured headers and the sign-in. */
  http?: { url: URL; headers: Record<string, string>; authProvider?: OAuthClientProvider };
}

/** A revision before the 2026-07-28 wire: tools/call is a plain JSON-RPC request. */
export function isLegacyEra(version: string | undefined): boolean {
  return version !== undefined && version < "2026-07-28";
}

export function chooseCallPath(choice: PathChoice): CallPath {
  const sdk = sdkPath(choice.client, choice.maxWait);
  if (!isLegacyEra(choice.client.getNegotiatedProtocolVersion())) return sdk;
  const setting = { server: choice.server, maxWait: choice.maxWait, client: choice.client, plain: choice.plain, sdk };
  // Call once the client has connected: the raw calls take their responses off its onmessage.
  if (choice.kind === "stdio") return stdioRawPath(new RawCalls(choice.transport), setting);
  const { http, transport } = choice;
  if (choice.kind === "streamable-http" && http && transport instanceof StreamableHTTPClientTransport && !http.authProvider?.dpop) {
    return httpFastPath(fastTarget(http.url, http.headers, transport, http.authProvider), setting);
  }
  return sdk;
}
