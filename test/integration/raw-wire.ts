// Lists read off the wire as JSON, with no client library's schema in between: what a server
// says (stdio lines) and what the gateway says (POSTs to /mcp), so tests compare them exactly.
import { spawn } from "node:child_process";

type Message = { id?: number; result?: Record<string, unknown>; error?: unknown };

/** What the companion's client declares: servers (server-everything) offer tools by it. */
const COMPANION_CAPABILITIES = {
  elicitation: { form: {}, url: {} },
  sampling: {},
  roots: { listChanged: true },
  tasks: { list: {}, cancel: {}, requests: { elicitation: { create: {} }, sampling: { createMessage: {} } } },
};

/** Initializes a stdio server as the companion would, sends each request in turn and returns their results. */
export async function stdioResults(command: string, args: string[], requests: Array<{ method: string; params?: unknown }>): Promise<Record<string, unknown>[]> {
  const child = spawn(command, args, { stdio: ["pipe", "pipe", "ignore"] });
  const waiting = new Map<number, (m: Message) => void>();
  let buffer = "";
  child.stdout.on("data", (chunk: Buffer) => {
    buffer += chunk.toString("utf8");
    let nl;
    while ((nl = buffer.indexOf("\n")) >= 0) {
      const line = buffer.slice(0, nl);
      buffer = buffer.slice(nl + 1);
      try {
        const message = JSON.parse(line) as Message;
        if (typeof message.id === "number") waiting.get(message.id)?.(message);
      } catch {
        // not a JSON-RPC line
      }
    }
  });
  let next = 0;
  const send = (method: string, params?: unknown) =>
    new Promise<Message>((resolve, reject) => {
      const id = ++next;
      const timer = setTimeout(() => reject(new Error(`${method}: no answer`)), 10_000);
      waiting.set(id, (m) => {
        clearTimeout(timer);
        resolve(m);
      });
      child.stdin.write(`${JSON.stringify({ jsonrpc: "2.0", id, method, ...(params !== undefined ? { params } : {}) })}\n`);
    });
  try {
    await send("initialize", { protocolVersion: "2025-11-25", capabilities: COMPANION_CAPABILITIES, clientInfo: { name: "raw-wire", version: "1" } });
    child.stdin.write(`${JSON.stringify({ jsonrpc: "2.0", method: "notifications/initialized" })}\n`);
    const out: Record<string, unknown>[] = [];
    for (const r of requests) {
      const answer = await send(r.method, r.params);
      if (!answer.result) throw new Error(`${r.method}: ${JSON.stringify(answer.error)}`);
      out.push(answer.result);
    }
    return out;
  } finally {
    child.kill();
  }
}

/** One agent session on the gateway, spoken as raw JSON-RPC POSTs. */
export async function gatewaySession(mcpUrl: string, token: string, capabilities: Record<string, unknown> = {}) {
  let session: string | undefined;
  let next = 0;
  const post = async (body: Record<string, unknown>): Promise<Message | undefined> => {
    const response = await fetch(mcpUrl, {
      method: "POST",
      headers: {
        authorization: `Bearer ${token}`,
        accept: "application/json, text/event-stream",
        "content-type": "application/json",
        ...(session ? { "mcp-session-id": session, "mcp-protocol-version": "2025-11-25" } : {}),
      },
      body: JSON.stringify(body),
    });
    session ??= response.headers.get("mcp-session-id") ?? undefined;
    const text = await response.text();
    if (!text) return undefined;
    if (!(response.headers.get("content-type") ?? "").includes("event-stream")) return JSON.parse(text) as Message;
    // Priming events carry an empty data line.
    const data = text.split("\n").filter((l) => l.startsWith("data: ") && l.length > 6).map((l) => JSON.parse(l.slice(6)) as Message);
    return data.find((m) => m.id === body.id);
  };
  const request = async (method: string, params?: unknown): Promise<Record<string, unknown>> => {
    const answer = await post({ jsonrpc: "2.0", id: ++next, method, ...(params !== undefined ? { params } : {}) });
    if (!answer?.result) throw new Error(`${method}: ${JSON.stringify(answer?.error)}`);
    return answer.result;
  };
  await request("initialize", { protocolVersion: "2025-11-25", capabilities, clientInfo: { name: "raw-agent", version: "1" } });
  await post({ jsonrpc: "2.0", method: "notifications/initialized" });
  return { request };
}
