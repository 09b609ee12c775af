// Static files stay inside the page folder, symlinks included: a link placed in the folder that
// points at a file elsewhere (a secret, /etc/hostname) is not followed out of it.
import { createServer, type Server } from "node:http";
import { mkdtempSync, mkdirSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { serveStatic } from "../../../../src/main/http/static-files";

let server: Server;
let base: string;

beforeAll(async () => {
  const root = mkdtempSync(join(tmpdir(), "tnc-static-links-"));
  const outside = mkdtempSync(join(tmpdir(), "tnc-secret-"));
  writeFileSync(join(outside, "secret.txt"), "the-secret-value");
  mkdirSync(join(outside, "dir"));
  writeFileSync(join(outside, "dir", "inner.txt"), "inner-secret");
  writeFileSync(join(root, "index.html"), "<!doctype html><title>page</title>");
  mkdirSync(join(root, "assets"));
  writeFileSync(join(root, "assets", "real.js"), "console.log(1)");
  symlinkSync(join(outside, "secret.txt"), join(root, "assets", "leak.txt"));
  symlinkSync("/etc/hostname", join(root, "hostname.txt"));
  symlinkSync(join(outside, "dir"), join(root, "linked"));
  // A link that stays inside the folder is fine.
  symlinkSync(join(root, "assets", "real.js"), join(root, "alias.js"));
  server = createServer((req, res) => void serveStatic(root, new URL(req.url ?? "/", "http://x").pathname, req, res));
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

describe("serveStatic and symlinks", () => {
  it.each(["/assets/leak.txt", "/hostname.txt", "/linked/inner.txt"])("does not follow %s out of the folder", async (path) => {
    const response = await fetch(base + path);
    const body = await response.text();
    expect(response.status).toBe(404);
    expect(body).not.toMatch(/secret/);
  });
  it("follows a link that stays inside the folder", async () => {
    const response = await fetch(`${base}/alias.js`);
    expect(response.status).toBe(200);
    expect(await response.text()).toBe("console.log(1)");
  });
  it("serves ordinary files and refuses a NUL in the path", async () => {
    expect((await fetch(`${base}/assets/real.js`)).status).toBe(200);
    expect((await fetch(`${base}/a%00b.js`)).status).toBe(400);
    expect((await fetch(`${base}/%E0%A4%A.js`)).status).toBe(400);
  });
});
