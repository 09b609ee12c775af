// A real companion without windows: server-everything (stdio) behind loadMcp, the Inbox, the
// gateway and /v1/requests on the real loopback listener, and a scripted person.
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { request as httpRequest } from "node:http";
import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { Inbox, inboxWaitFor } from "../../src/main/inbox";
import { loadMcp } from "../../src/main/mcp/source";
import type { McpSource } from "../../src/main/mcp/types";
import { companionPolicy } from "../../src/main/app/companion-server";
import { startListener, type Listener } from "../../src/main/http/listener";
import { createGatewayRoute, createRequestsRoute, type GatewayOptions, type GatewayRoute, type RequestsRoute } from "../../src/main/gateway";
import type { AgentOutbound } from "../../src/main/gateway/outbound";
import { createEgress } from "../../src/main/app/egress";
import { SecretScrubber } from "../../src/main/secrets";
import type { PendingEntry } from "../../src/shared/types";
import { everythingStdioCommand } from "../fixtures";

export interface Companion {
  inbox: Inbox;
  source: McpSource;
  listener: Listener;
  gateway: GatewayRoute;
  requests: RequestsRoute;
  token: string;
  mcpUrl: string;
  /** Every question that reached the Inbox, in order. */
  added: PendingEntry[];
  /** Every question that left without an answer. */
  withdrawn: string[];
  close(): Promise<void>;
}

export async function startCompanion(
  options: {
    config?: unknown;
    everything?: boolean;
    idleSessionMs?: number;
    elicitation?: GatewayOptions["elicitation"];
    longWaits?: GatewayOptions["longWaits"];
    pollAfterMs?: number;
    /** Every log line of the source and the gateway. */
    log?: (line: string) => void;
  } = {},
): Promise<Companion> {
  const inbox = new Inbox();
  const config = options.config ?? (options.everything === false ? { mcpServers: {} } : { mcpServers: { everything: everythingStdioCommand() } });
  const source = await loadMcp(config, {
    waitFor: inboxWaitFor(inbox),
    log: options.log,
  });
  const token = `test-${Math.random().toString(36).slice(2)}`;
  const gateway = createGatewayRoute({ source, outbound: agentOutbound(), idleSessionMs: options.idleSessionMs, elicitation: options.elicitation, longWaits: options.longWaits, pollAfterMs: options.pollAfterMs, log: options.log });
  const requests = createRequestsRoute({ inbox, heartbeatMs: 200 });
  const listener = await startListener({
    port: 0,
    token: () => token,
    staticDir: mkdtempSync(join(tmpdir(), "tnc-static-")),
    ...companionPolicy(() => token, [gateway, requests]),
  });
  const added: PendingEntry[] = [];
  const withdrawn: string[] = [];
  inbox.on((event) => {
    if (event.type === "added") added.push(event.entry);
    if (event.type === "withdrawn") withdrawn.push(event.id);
  });
  return {
    inbox,
    source,
    listener,
    gateway,
    requests,
    token,
    mcpUrl: `${listener.url}/mcp`,
    added,
    withdrawn,
    async close() {
      requests.close();
      await gateway.close();
      await listener.close();
      inbox.close();
      await source.close();
    },
  };
}

/** An agent as Claude Code would be: an SDK client over streamable HTTP with the token header. */
export async function connectAgent(companion: Companion, name: string): Promise<Client> {
  const client = new Client({ name, version: "1.0.0" }, { capabilities: {} });
  const transport = new StreamableHTTPClientTransport(new URL(companion.mcpUrl), {
    requestInit: { headers: { authorization: `Bearer ${companion.token}` } },
  });
  await client.connect(transport);
  return client;
}

/** Resolves with the next question the Inbox receives that matches `where`. */
export function nextQuestion(companion: Companion, where: (entry: PendingEntry) => boolean = () => true): Promise<PendingEntry> {
  return new Promise((resolve) => {
    const seen = companion.added.find(where);
    if (seen) return resolve(seen);
    const off = companion.inbox.on((event) => {
      if (event.type === "added" && where(event.entry)) {
        off();
        resolve(event.entry);
      }
    });
  });
}

export { until } from "../helpers/poll";

export function textOf(result: { content?: unknown }): string {
  const content = (result.content ?? []) as Array<{ type: string; text?: string }>;
  return content.filter((c) => c.type === "text").map((c) => c.text).join("\n");
}

export interface RawResponse {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

/**
 * A raw HTTP request to the listener, so tests can set Host, Origin and bodies no client library
 * would send. `chunked` streams the body without a Content-Length.
 */
export function rawRequest(
  url: string,
  options: { method?: string; headers?: Record<string, string>; body?: string | Buffer; chunked?: boolean },
): Promise<RawResponse> {
  return new Promise((resolve, reject) => {
    const target = new URL(url);
    const body = options.body === undefined ? undefined : Buffer.from(options.body);
    const headers: Record<string, string> = { ...options.headers };
    if (body && !options.chunked) headers["content-length"] = String(body.length);
    const req = httpRequest(
      { host: target.hostname, port: target.port, path: target.pathname + target.search, method: options.method ?? "POST", headers },
      (res) => {
        const chunks: Buffer[] = [];
        res.on("data", (c: Buffer) => chunks.push(c));
        res.on("end", () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks).toString("utf8") }));
        res.on("error", reject);
      },
    );
    req.on("error", reject);
    if (body && options.chunked) {
      // Write in pieces so the server sees a streamed body past the limit.
      const piece = 256 * 1024;
      for (let i = 0; i < body.length; i += piece) req.write(body.subarray(i, i + piece));
      req.end();
    } else {
      req.end(body);
    }
  });
}

/** The app's egress for agents, over a registry of its own (nothing registered unless a test does). */
export function agentOutbound(scrubber = new SecretScrubber()): AgentOutbound {
  return createEgress(scrubber).agents;
}
