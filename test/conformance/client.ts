// The client the official conformance suite drives: `conformance client --command "<this>"` spawns
// it with the scenario's server URL as the last argument and MCP_CONFORMANCE_SCENARIO set.
// It is the app's real path — loadMcp + the elicitation bridge + the Inbox — with a scripted
// person who accepts every form exactly as pre-filled (answers `data: {}`), so the schema
// defaults the server sees come from the Inbox, not from this script.
//
// Per scenario the server checks what it saw; this runner only has to initialize (loadMcp does),
// list tools (loadMcp does) and call each listed tool once, then exit 0.
import { loadMcp } from "../../src/main/mcp/source";
import { Inbox, inboxWaitFor } from "../../src/main/inbox";
import type { McpSource } from "../../src/main/mcp/types";

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

async function main(): Promise<number> {
  if (!/^https?:\/\//.test(url ?? "")) {
    log(`expected the server URL as the last argument, got ${JSON.stringify(url)}`);
    return 2;
  }

  // The scripted person: every question that reaches the Inbox is answered on the next
  // microtask, forms as pre-filled (the Inbox fills in the schema defaults), links consented.
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
    });
  });

  let source: McpSource | undefined;
  try {
    source = await loadMcp(
      { mcpServers: { conformance: { url } } },
      {
        waitFor: inboxWaitFor(inbox),
        log,
      },
    );
    const status = source.servers().find((s) => s.name === "conformance");
    if (status?.state !== "connected") {
      log(`server did not connect: ${status?.state ?? "missing"} ${status?.error ?? ""}`);
      return 1;
    }
    log(`connected over ${status.transport}; ${source.tools.length} tool(s)`);

    let failures = 0;
    for (const tool of source.tools) {
      const args = argumentsFor(tool.inputSchema);
      const result = await tool.execute(args);
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
  }
}

main().then(
  (code) => process.exit(code),
  (error) => {
    log(`failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
    process.exit(1);
  },
);
