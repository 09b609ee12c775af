// A remote server that never ends its answer: an event stream with no blank line, or a JSON body,
// past MAX_SERVER_MESSAGE_BYTES. The fast path fails the call with a clear error and drops the
// stream instead of buffering without end, reading each byte once; the process lives on. A real HTTP server on loopback.
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { fastCall } from "../../src/main/mcp/call-paths/http-fast";
import { MAX_SERVER_MESSAGE_BYTES } from "../../src/shared/limits";

let server: Server;
let base: string;
/** Bytes the server managed to write before the companion dropped the stream. */
const written: Record<string, number> = {};

function flood(kind: string, res: import("node:http").ServerResponse, first: string): void {
  const chunk = "x".repeat(1024 * 1024);
  written[kind] = 0;
  res.write(first);
  const more = () => {
    while (!res.destroyed && written[kind] < MAX_SERVER_MESSAGE_BYTES * 2) {
      written[kind] += chunk.length;
      if (!res.write(chunk)) return void res.once("drain", more);
    }
    res.end();
  };
  res.on("close", () => res.destroy());
  more();
}

beforeAll(async () => {
  server = createServer((req, res) => {
    req.resume();
    if (req.url === "/sse") {
      res.writeHead(200, { "content-type": "text/event-stream" });
      flood("sse", res, 'data: {"jsonrpc":"2.0","method":"notifications/message","params":{"data":"');
    } else {
      res.writeHead(200, { "content-type": "application/json" });
      flood("json", res, '{"jsonrpc":"2.0","id":"c1","result":{"content":[{"type":"text","text":"');
    }
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

const target = (path: string) => ({ url: new URL(path, base), headers: {}, session: () => ({}), deliver: () => {} });

describe("the HTTP fast path against a server whose answer never ends", () => {
  for (const [kind, path] of [["sse", "/sse"], ["json", "/json"]] as const) {
    it(`${kind}: the call fails with the bound named, and the server's stream is dropped`, async () => {
      const started = Date.now();
      const call = fastCall(target(path), "c1", { name: "t", arguments: {} }, new AbortController().signal);
      await expect(call).rejects.toThrow(/larger than 64 MiB/);
      // A freeze check, not a benchmark: reading 64 MiB once is well under a second here; a reader
      // that rescans what it holds per chunk took about a minute, the event loop blocked throughout.
      expect(Date.now() - started).toBeLessThan(15_000);
      // Dropped well before the server's 128 MiB were taken.
      expect(written[kind]).toBeLessThan(MAX_SERVER_MESSAGE_BYTES * 2);
    }, 60_000);
  }
});
