// Everything of MCP beside tools, for one agent session: resources (list, templates, read,
// subscribe), prompts, completions and logging levels, each routed to the server that owns it
// through the shared Catalog. Results pass through as the server gave them (every content type),
// scrubbed of our own request headers like tool results.
import { ProtocolError, ProtocolErrorCode, type Server } from "@modelcontextprotocol/server";
import { secretScrubber } from "../secrets/scrub";
import type { Catalog } from "./catalog";

type Params = Record<string, unknown>;

/** A server's error as the agent gets it: its code and data kept, its message scrubbed. */
function relayError(error: unknown): ProtocolError {
  if (error instanceof ProtocolError) return new ProtocolError(error.code, secretScrubber.scrub(error.message), error.data);
  const e = error as { code?: unknown; message?: unknown; data?: unknown };
  const code = typeof e?.code === "number" && Number.isSafeInteger(e.code) ? e.code : ProtocolErrorCode.InternalError;
  return new ProtocolError(code, secretScrubber.scrub(String(e?.message ?? error)), e?.data);
}

function unknownUri(uri: unknown): ProtocolError {
  // -32002 is the spec's "Resource not found".
  return new ProtocolError(-32002 as ProtocolErrorCode, `Resource not found: no connected server owns ${JSON.stringify(uri)} (see resources/list and resources/templates/list).`);
}

async function forwarded<T>(work: () => Promise<T>): Promise<T> {
  try {
    return secretScrubber.scrubValue(await work());
  } catch (error) {
    throw relayError(error);
  }
}

/**
 * Registers the handlers for what `caps` (the union the servers offer) declares. `session` keys
 * the session's subscriptions and log level in the catalog.
 */
export function registerSurface(server: Server, catalog: Catalog, caps: Record<string, unknown>, session: string): void {
  const handle = server.setRequestHandler.bind(server) as (method: string, handler: (request: { params?: Params }, ctx: { mcpReq: { signal: AbortSignal } }) => Promise<unknown>) => void;

  if (caps.resources) {
    handle("resources/list", async (_request, ctx) => forwarded(async () => ({ resources: await catalog.listResources(ctx.mcpReq.signal) })));
    handle("resources/templates/list", async (_request, ctx) =>
      forwarded(async () => ({ resourceTemplates: await catalog.listTemplates(ctx.mcpReq.signal) })),
    );
    handle("resources/read", async (request, ctx) => {
      const uri = request.params?.uri;
      const owner = typeof uri === "string" ? await catalog.resolveUri(uri, ctx.mcpReq.signal) : undefined;
      if (!owner) throw unknownUri(uri);
      return forwarded(() => owner.backend.forward("resources/read", { ...request.params, uri: owner.original }, { signal: ctx.mcpReq.signal }));
    });
  }
  if ((caps.resources as { subscribe?: boolean } | undefined)?.subscribe) {
    for (const method of ["resources/subscribe", "resources/unsubscribe"] as const) {
      handle(method, async (request, ctx) => {
        const uri = request.params?.uri;
        const owner = typeof uri === "string" ? await catalog.resolveUri(uri, ctx.mcpReq.signal) : undefined;
        if (!owner) throw unknownUri(uri);
        return forwarded(async () => {
          if (method === "resources/subscribe") await catalog.subscribe(session, owner, ctx.mcpReq.signal);
          else await catalog.unsubscribe(session, owner, ctx.mcpReq.signal);
          return {};
        });
      });
    }
  }
  if (caps.prompts) {
    handle("prompts/list", async (_request, ctx) => forwarded(async () => ({ prompts: await catalog.listPrompts(ctx.mcpReq.signal) })));
    handle("prompts/get", async (request, ctx) => {
      const name = request.params?.name;
      const owner = typeof name === "string" ? await catalog.resolvePrompt(name, ctx.mcpReq.signal) : undefined;
      if (!owner) throw new ProtocolError(ProtocolErrorCode.InvalidParams, `Unknown prompt ${JSON.stringify(name)}: no connected server offers it (see prompts/list).`);
      return forwarded(() => owner.backend.forward("prompts/get", { ...request.params, name: owner.original }, { signal: ctx.mcpReq.signal }));
    });
  }
  if (caps.completions) {
    handle("completion/complete", async (request, ctx) => {
      const ref = (request.params?.ref ?? {}) as Params;
      const signal = ctx.mcpReq.signal;
      let owner;
      let target: Params;
      if (ref.type === "ref/prompt" && typeof ref.name === "string") {
        owner = await catalog.resolvePrompt(ref.name, signal);
        target = { ...ref, name: owner?.original };
      } else if (ref.type === "ref/resource" && typeof ref.uri === "string") {
        owner = await catalog.resolveTemplate(ref.uri, signal);
        target = { ...ref, uri: owner?.original };
      } else {
        throw new ProtocolError(ProtocolErrorCode.InvalidParams, "completion/complete needs ref {type: \"ref/prompt\", name} or {type: \"ref/resource\", uri}.");
      }
      if (!owner) throw new ProtocolError(ProtocolErrorCode.InvalidParams, `No connected server owns ${JSON.stringify(ref.name ?? ref.uri)}.`);
      if (owner.backend.capabilities()?.completions === undefined) return { completion: { values: [], hasMore: false } };
      const backend = owner.backend;
      return forwarded(() => backend.forward("completion/complete", { ...request.params, ref: target }, { signal }));
    });
  }
  if (caps.logging) {
    handle("logging/setLevel", async (request, ctx) => {
      const level = request.params?.level;
      if (typeof level !== "string") throw new ProtocolError(ProtocolErrorCode.InvalidParams, "logging/setLevel needs a level.");
      await catalog.setLevel(session, level, ctx.mcpReq.signal);
      return {};
    });
  }
}
