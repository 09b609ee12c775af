// The fast path's event-stream reader (src/main/mcp/call-paths/http-fast.ts): events split anywhere
// across chunks, CRLF and CR line ends (a CRLF split between chunks too), multi-line data,
// comments and non-data fields ignored, a non-JSON event skipped.
import { PassThrough } from "node:stream";
import { describe, expect, it } from "vitest";
import { readEventStream } from "../../../../../src/main/mcp/call-paths/http-fast";

function read(chunks: string[]): Promise<unknown[]> {
  const stream = new PassThrough();
  const messages: unknown[] = [];
  return new Promise((resolve) => {
    readEventStream(stream, (m) => messages.push(m), () => resolve(messages));
    for (const chunk of chunks) stream.write(chunk);
    stream.end();
  });
}

const text = 'id: a_1\nretry: 1000\ndata: \n\n: keepalive\n\nevent: message\nid: a_2\ndata: {"jsonrpc":"2.0",\ndata: "id":1}\n\ndata: not json\n\ndata:{"n":2}\n\n';
const expected = [{ jsonrpc: "2.0", id: 1 }, { n: 2 }];

describe("readEventStream", () => {
  it("reads whole events from one chunk", async () => {
    expect(await read([text])).toEqual(expected);
  });

  it("reads the same events split at every position", async () => {
    for (let cut = 1; cut < text.length; cut++) expect(await read([text.slice(0, cut), text.slice(cut)])).toEqual(expected);
  });

  it("takes CRLF and CR line ends, a CRLF split between chunks included", async () => {
    const crlf = text.replace(/\n/g, "\r\n");
    for (let cut = 1; cut < crlf.length; cut++) expect(await read([crlf.slice(0, cut), crlf.slice(cut)])).toEqual(expected);
    expect(await read([text.replace(/\n/g, "\r")])).toEqual(expected);
  });
});

describe("readEventStream bounds", () => {
  it("drops a stream whose unfinished event outgrows the bound, with an error, and reads nothing more", async () => {
    const stream = new PassThrough();
    const messages: unknown[] = [];
    const ended = new Promise<Error | undefined>((resolve) => readEventStream(stream, (m) => messages.push(m), resolve, undefined, 1_000));
    stream.write('data: {"n":1}\n\n');
    stream.write(`data: ${"x".repeat(600)}`);
    stream.write("x".repeat(600));
    const error = await ended;
    expect(error?.message).toMatch(/larger than .* MiB/);
    expect(messages).toEqual([{ n: 1 }]);
    expect(stream.destroyed).toBe(true);
  });
});
