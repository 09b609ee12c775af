// `toolnexus-companion connect`: a stdio MCP server that is really the companion's gateway. For
// agents that can only launch stdio servers: every message is passed through unchanged, so the
// agent sees the gateway's tools, progress, list_changed and errors exactly as an HTTP client would.
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { StdioServerTransport } from "@modelcontextprotocol/server/stdio";
import type { JSONRPCMessage } from "@modelcontextprotocol/server";
import { complainer } from "./print";
import { companionUrl, resolveToken } from "./resolve-token";
import { NotTheCompanion, provenAgent, provenFetch } from "./proven-connection";
import { agentArg } from "./agent-arg";
import { agentCredential } from "../http/agent-credential";

type Fetch = ReturnType<typeof provenFetch>;

// Its own words go to stderr (stdout is the MCP stream), through the same printer as every command.
const say = complainer("connect");

function fail(message: string): number {
  say(message);
  return 1;
}

/**
 * Checks the companion answers and takes the token before any MCP traffic flows. Like every
 * request of the shim it goes through the proven agent: the token is sent only once the listener
 * has proven it is the companion.
 */
async function probe(endpoint: URL, token: string, fetchProven: Fetch): Promise<string | undefined> {
  let status: number;
  try {
    const res = await fetchProven(endpoint, { method: "GET", headers: { authorization: `Bearer ${token}` }, signal: AbortSignal.timeout(10_000) });
    status = res.status;
    await res.body?.cancel();
  } catch (error) {
    if (error instanceof NotTheCompanion) return `${error.message}. Nothing was sent to it but a random challenge.`;
    const inner = (error as { cause?: { code?: string; message?: string } }).cause;
    const cause = inner?.code ?? inner?.message ?? (error as Error).message;
    return `the companion is not running at ${endpoint.origin} (${cause}). Start Toolnexus Companion (or \`npm run serve\`) and try again.`;
  }
  if (status === 401) return `the companion at ${endpoint.origin} refused the token (was it rotated?). Copy the current one from its settings.`;
  if (status === 403) return `the companion at ${endpoint.origin} refused this request (${status}).`;
  return undefined;
}

function isRequest(message: JSONRPCMessage): message is JSONRPCMessage & { id: string | number; method: string } {
  return "method" in message && "id" in message;
}

export async function runConnect(args: string[]): Promise<number> {
  const agent = agentArg(args);
  if (agent instanceof Error) return fail(`${agent.message}; set TOOLNEXUS_COMPANION_URL / TOOLNEXUS_COMPANION_TOKEN for the rest.`);
  const { token, why } = await resolveToken();
  if (!token) return fail(`no gateway token: ${why}.`);
  const endpoint = new URL("/mcp", companionUrl());
  // The companion is proven with the token; the calls carry the agent's own credential, so the
  // gateway knows which agent this is from the credential (agent-credential.ts).
  const fetchProven = provenFetch(provenAgent(token));
  const bearer = agent ? agentCredential(token, agent) : token;
  const refused = await probe(endpoint, bearer, fetchProven);
  if (refused) return fail(refused);

  const http = new StreamableHTTPClientTransport(endpoint, { fetch: fetchProven, requestInit: { headers: { authorization: `Bearer ${bearer}` } } });
  const stdio = new StdioServerTransport();
  let initializeId: string | number | undefined;

  return new Promise<number>((resolve) => {
    let done = false;
    const finish = async (code: number, message?: string) => {
      if (done) return;
      done = true;
      if (message) say(message);
      // End the gateway session so its in-flight calls (and their questions) are withdrawn.
      await http.terminateSession().catch(() => {});
      await http.close().catch(() => {});
      await stdio.close().catch(() => {});
      resolve(code);
    };

    stdio.onmessage = (message) => {
      if (isRequest(message) && message.method === "initialize") initializeId = message.id;
      http.send(message).catch(async (error: Error) => {
        // Answer the request so the agent is not left waiting, then leave: the companion is gone.
        if (isRequest(message)) {
          await stdio
            .send({ jsonrpc: "2.0", id: message.id, error: { code: -32000, message: `Toolnexus Companion is unreachable: ${error.message}` } })
            .catch(() => {});
        }
        void finish(1, `lost the companion at ${endpoint.origin}: ${error.message}`);
      });
    };
    http.onmessage = (message) => {
      // The HTTP transport sends MCP-Protocol-Version once it knows it; a pass-through has to tell it.
      if (initializeId !== undefined && "result" in message && message.id === initializeId) {
        const version = (message.result as { protocolVersion?: unknown }).protocolVersion;
        if (typeof version === "string") http.setProtocolVersion(version);
        initializeId = undefined;
      }
      void stdio.send(message).catch(() => finish(0));
    };
    http.onerror = (error) => say(error.message);
    stdio.onclose = () => void finish(0);
    stdio.onerror = (error) => say(error.message);
    process.once("SIGTERM", () => void finish(0));
    process.once("SIGINT", () => void finish(0));

    void http.start().then(() => stdio.start());
  });
}
