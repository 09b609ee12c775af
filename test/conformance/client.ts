// The client the official conformance suite drives: `conformance client --command "<this>"` spawns
// it with the scenario's server URL as the last argument and MCP_CONFORMANCE_SCENARIO set.
// It is the app's real path — loadMcp + the elicitation bridge + the Inbox — with a scripted
// person who accepts every form exactly as pre-filled (answers `data: {}`), so the schema
// defaults the server sees come from the Inbox, not from this script.
//
// Per scenario the server checks what it saw; this runner only has to initialize (loadMcp does),
// list tools (loadMcp does) and call each listed tool once, then exit 0.
//
// auth/* scenarios: the app's OAuth (createAuth) with a memory SecretStore and a loopback callback
// listener. The sign-in question reaches the Inbox like any other; the scripted person accepts it
// ("I opened it") and, as a browser would, follows the authorization URL and its redirect to the
// callback. The suite's authorization server approves at once and redirects with a code.
import { loadMcp } from "../../src/main/mcp/source";
import { Inbox, inboxWaitFor } from "../../src/main/inbox";
import type { McpSource } from "../../src/main/mcp/types";
import { CallbackHub, createAuth, startCallbackListener, type CallbackListener } from "../../src/main/auth";
import { createMemoryStore } from "../../src/main/secrets";
import type { ServerStatus } from "../../src/shared/types";
import { outputOf } from "../helpers/tool-output";

/** The suite's authorization servers accept this URL as a client ID metadata document (SEP-991). */
const CIMD_CLIENT_METADATA_URL = "https://conformance-test.local/client-metadata.json";

const url = process.argv[process.argv.length - 1];
const scenario = process.env.MCP_CONFORMANCE_SCENARIO ?? "(unnamed)";

function log(line: string): void {
  process.stderr.write(`[conformance-client ${scenario}] ${line}\n`);
}

/** Arguments for a tool from its input schema: defaults, else the first enum value, else a typed stand-in. */
function argumentsFor(inputSchema: Record<string, unknown>): Record<string, unknown> {
  const properties = (inputSchema.properties ?? {}) as Record<string, Record<string, unknown>>;
  const args: Record<string, unknown> = {};
  let n = 0;
  for (const [name, property] of Object.entries(properties)) {
    n++;
    if (property.default !== undefined) args[name] = property.default;
    else if (Array.isArray(property.enum) && property.enum.length > 0) args[name] = property.enum[0];
    else if (property.type === "number" || property.type === "integer") args[name] = n;
    else if (property.type === "boolean") args[name] = true;
    else if (property.type === "string") args[name] = `value-${n}`;
  }
  return args;
}

/** What a browser does with the authorization URL here: the server redirects at once to the callback. */
async function followAsBrowser(authorizationUrl: string): Promise<void> {
  const response = await fetch(authorizationUrl, { redirect: "manual" });
  const location = response.headers.get("location");
  if (!location) throw new Error(`the authorization endpoint answered ${response.status} without a redirect`);
  const landed = await fetch(new URL(location, authorizationUrl));
  log(`callback page: ${landed.status}`);
}

/** The pre-registered client the suite hands over for auth/pre-registration. */
function preRegistered(): { clientId: string; clientSecret?: string } | undefined {
  const raw = process.env.MCP_CONFORMANCE_CONTEXT;
  if (!raw) return undefined;
  const context = JSON.parse(raw) as { client_id?: string; client_secret?: string };
  return context.client_id ? { clientId: context.client_id, clientSecret: context.client_secret } : undefined;
}

/** A server that needs sign-in connects in the background: wait until it has connected or given up. */
function settled(source: McpSource, name: string, ms: number): Promise<ServerStatus | undefined> {
  const done = (s?: ServerStatus) => !!s && (s.state === "connected" || s.state === "failed" || (s.state === "needs-sign-in" && /did not complete|signed out/.test(s.error ?? "")));
  return new Promise((resolve) => {
    const current = () => source.servers().find((s) => s.name === name);
    if (done(current())) return resolve(current());
    const timer = setTimeout(() => {
      stop();
      resolve(current());
    }, ms);
    const stop = source.on((event) => {
      if (event.type === "status" && event.status.name === name && done(event.status)) {
        clearTimeout(timer);
        stop();
        resolve(event.status);
      }
    });
  });
}

async function main(): Promise<number> {
  if (!/^https?:\/\//.test(url ?? "")) {
    log(`expected the server URL as the last argument, got ${JSON.stringify(url)}`);
    return 2;
  }

  // The scripted person: every question that reaches the Inbox is answered on the next
  // microtask, forms as pre-filled (the Inbox fills in the schema defaults), links consented.
  const isAuth = scenario.startsWith("auth/");
  const inbox = new Inbox();
  inbox.on((event) => {
    if (event.type !== "added") return;
    const { request } = event.entry;
    queueMicrotask(() => {
      try {
        const delivered = inbox.answer(request.id, request.kind === "input" ? { ok: true, data: {} } : { ok: true });
        log(`answered ${request.kind} question: ${JSON.stringify(delivered.data ?? {})}`);
      } catch (error) {
        log(`could not answer ${request.id}: ${(error as Error).message}`);
      }
      if (isAuth && request.kind === "authorization" && request.url) {
        followAsBrowser(request.url).catch((error: Error) => log(`following the authorization URL failed: ${error.message}`));
      }
    });
  });

  let source: McpSource | undefined;
  let callback: CallbackListener | undefined;
  try {
    let auth;
    const server: Record<string, unknown> = { url };
    if (isAuth) {
      const hub = new CallbackHub();
      callback = await startCallbackListener(hub);
      auth = createAuth({ secrets: createMemoryStore("conformance"), callbackUrl: callback.url, hub, clientMetadataUrl: CIMD_CLIENT_METADATA_URL });
      const client = scenario === "auth/pre-registration" ? preRegistered() : undefined;
      if (client) server.oauth = client;
    }
    source = await loadMcp({ mcpServers: { conformance: server } }, { waitFor: inboxWaitFor(inbox), log, auth });
    const status = isAuth ? await settled(source, "conformance", 30_000) : source.servers().find((s) => s.name === "conformance");
    if (status?.state !== "connected") {
      log(`server did not connect: ${status?.state ?? "missing"} ${status?.error ?? ""}`);
      return 1;
    }
    log(`connected over ${status.transport}; ${source.tools.length} tool(s)`);

    let failures = 0;
    for (const tool of source.tools) {
      const args = argumentsFor(tool.inputSchema);
      const result = await outputOf(tool.execute(args));
      log(`${tool.tool}(${JSON.stringify(args)}) -> ${result.isError ? "ERROR " : ""}${result.output}`);
      if (result.isError) failures++;
    }
    if (scenario !== "initialize" && source.tools.length === 0) {
      log("the scenario's server listed no tools");
      failures++;
    }
    return failures === 0 ? 0 : 1;
  } finally {
    inbox.close();
    await source?.close();
    await callback?.close();
  }
}

main().then(
  (code) => process.exit(code),
  (error) => {
    log(`failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
    process.exit(1);
  },
);
