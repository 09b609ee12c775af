// A remote server whose answer through the SDK's transport never ends (test/fixtures/hostile-http):
// one endless SSE line, one endless event of short lines, one endless JSON body. The SDK reads
// them without a bound; bounded-fetch.ts cuts each at MAX_SERVER_MESSAGE_BYTES. The server fails
// with that reason, the companion reads no further (the server sees the hang-up) and its memory
// stays in bounds; an ordinary server beside it connects as usual.
import { spawn, type ChildProcess } from "node:child_process";
import { afterAll, describe, expect, it } from "vitest";
import { createCore, type Core } from "../../src/main/app/core";
import { MAX_SERVER_MESSAGE_BYTES } from "../../src/shared/limits";
import { browserPlatform } from "../../src/main/app/serve";
import { fixture } from "../fixtures";

const children: ChildProcess[] = [];
const cores: Core[] = [];
afterAll(async () => {
  await Promise.all(cores.map((c) => c.close()));
  for (const c of children) c.kill("SIGKILL");
});

async function startServer(mode: string): Promise<string> {
  const child = spawn(process.execPath, [fixture("hostile-http"), "--mode", mode], { stdio: ["ignore", "pipe", "inherit"] });
  children.push(child);
  return new Promise((resolve, reject) => {
    let out = "";
    child.stdout!.on("data", (chunk) => {
      out += String(chunk);
      const match = /^LISTENING (\S+)$/m.exec(out);
      if (match) resolve(match[1]);
    });
    child.once("exit", () => reject(new Error(`hostile-http ${mode} exited: ${out}`)));
  });
}

describe("a remote server whose answer never ends", () => {
  for (const [mode, what] of [
    ["sse-endless", "an event"],
    ["sse-lines", "an event"],
    ["json-endless", "a response"],
  ] as const) {
    it(`${mode}: the server fails with the bound as its reason; nothing past it is read`, async () => {
      const url = await startServer(mode);
      const fine = await startServer("fine");
      const rssBefore = process.memoryUsage().rss;
      const core = await createCore({
        config: { mcpServers: { hostile: { url, type: "streamable-http", protocol: "legacy" }, fine: { url: fine, type: "streamable-http", protocol: "legacy" } } },
        platform: browserPlatform,
        log: () => {},
      });
      cores.push(core);
      const hostile = core.servers().find((s) => s.name === "hostile");
      expect(hostile?.state).toBe("failed");
      expect(hostile?.error).toContain(`the server sent ${what} over ${MAX_SERVER_MESSAGE_BYTES} bytes; it was not read further`);
      expect(core.servers().find((s) => s.name === "fine")).toMatchObject({ state: "connected", toolCount: 1 });
      // The server was hung up on: it sent about the bound, not all 80 MiB.
      const sent = Number(await (await fetch(new URL("/sent", url))).text());
      expect(sent).toBeLessThan(80 * 1024 * 1024);
      // Nothing like the 80 MiB (×2 as a JS string) was held on to.
      expect(process.memoryUsage().rss - rssBefore).toBeLessThan(400 * 1024 * 1024);
    }, 60_000);
  }
});
