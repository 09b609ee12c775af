// An agent built on the SDK v1 client (@modelcontextprotocol/sdk), as most agents in the field
// are, talking to the gateway over streamable HTTP with the token, optionally declaring roots.
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { ListRootsRequestSchema } from "@modelcontextprotocol/sdk/types.js";
import type { Companion } from "./gateway-harness";

export async function v1Agent(companion: Companion, name: string, options: { roots?: string[] } = {}): Promise<Client> {
  const client = new Client({ name, version: "1.0.0" }, { capabilities: options.roots ? { roots: { listChanged: true } } : {} });
  if (options.roots) {
    const roots = options.roots.map((uri) => ({ uri, name: uri.split("/").pop() ?? uri }));
    client.setRequestHandler(ListRootsRequestSchema, async () => ({ roots }));
  }
  const transport = new StreamableHTTPClientTransport(new URL(companion.mcpUrl), {
    requestInit: { headers: { authorization: `Bearer ${companion.token}` } },
  });
  await client.connect(transport);
  return client;
}

export function textOfV1(result: unknown): string {
  const content = ((result as { content?: unknown }).content ?? []) as Array<{ type: string; text?: string }>;
  return content.filter((c) => c.type === "text").map((c) => c.text).join("\n");
}
