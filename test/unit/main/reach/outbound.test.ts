// What reach sends is bounded: a deadline for the whole exchange, no redirect followed (it could
// carry a token's header elsewhere), at most the start of an answer read, a refusal that names
// the host and status but never the URL's path (a webhook's URL is its credential), and https
// required except to this computer.
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { send, urlProblem } from "../../../../src/main/reach/outbound";

let server: Server;
let base: string;
const followed: string[] = [];

beforeAll(async () => {
  server = createServer((req, res) => {
    req.resume();
    if (req.url === "/slow") return; // never answers
    if (req.url === "/redirect") return void res.writeHead(307, { location: "/elsewhere" }).end();
    if (req.url === "/elsewhere") {
      followed.push(String(req.headers.authorization));
      return void res.writeHead(200).end();
    }
    if (req.url === "/huge") {
      res.writeHead(200);
      const chunk = Buffer.alloc(64 * 1024, 120);
      let sent = 0;
      const more = () => {
        while (sent < 64 && res.write(chunk)) sent++;
        if (sent < 64) res.once("drain", more);
        else res.end();
      };
      return void more();
    }
    res.writeHead(403).end("forbidden: bad token T0PSECRET");
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise<void>((resolve) => server.close(() => resolve()));
});

describe("outbound", () => {
  it("gives up at its deadline", async () => {
    const started = Date.now();
    await expect(send({ url: `${base}/slow`, headers: {}, body: "x", timeoutMs: 300 })).rejects.toThrow(/no answer within 0.3 s/);
    expect(Date.now() - started).toBeLessThan(3000);
  });

  it("does not follow a redirect, so no header goes elsewhere", async () => {
    await expect(send({ url: `${base}/redirect`, headers: { authorization: "Bearer tk" }, body: "x" })).rejects.toThrow("answered 307 (a redirect, which is not followed)");
    expect(followed).toEqual([]);
  });

  it("reads only the start of a large answer", async () => {
    const answer = await send({ url: `${base}/huge`, headers: {}, body: "x" });
    expect(answer.text.length).toBeLessThanOrEqual(16 * 1024);
  });

  it("names the host and the status, not the path or the answer", async () => {
    const error = await send({ url: `${base}/services/T0/B0/webhook-secret`, headers: {}, body: "x" }).catch((e: Error) => e);
    expect((error as Error).message).toBe(`${new URL(base).host} answered 403`);
  });

  it("refuses a message over its bound before sending", async () => {
    await expect(send({ url: `${base}/x`, headers: {}, body: "x".repeat(70_000) })).rejects.toThrow("more than 65536");
  });

  it("wants https except to this computer, and no password in the URL", () => {
    expect(urlProblem("https://ntfy.sh/t", "The URL")).toBeUndefined();
    expect(urlProblem("http://127.0.0.1:8080/t", "The URL")).toBeUndefined();
    expect(urlProblem("http://[::1]:8080/t", "The URL")).toBeUndefined();
    expect(urlProblem("http://ntfy.lan/t", "The URL")).toMatch(/https/);
    expect(urlProblem("https://u:p@ntfy.sh/t", "The URL")).toMatch(/password/);
    expect(urlProblem("not a url", "The URL")).toBe("The URL is not a URL");
  });
});
