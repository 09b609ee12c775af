// The service worker's push handler (src/renderer/public/push.js) in Chromium: a worker that only
// loads it (importScripts, as the device page's worker does), registered by a page on a local
// origin, receives pushes through Chromium's own
// delivery (DevTools' ServiceWorker.deliverPushMessage, the path a push service's message takes
// once decrypted): a "question" shows its notification under the question's tag, a "close"
// withdraws it, and anything else shows nothing.
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { repoRoot, useBrowser } from "./harness";
import { until } from "../helpers/poll";

let server: Server;
let origin: string;

const e2e = useBrowser({
  uiTimeout: 15_000,
  closeContexts: "after-all",
  afterAll: () => new Promise<void>((resolve) => server.close(() => resolve())),
});

async function serveWorker(): Promise<void> {
  const handler = readFileSync(join(repoRoot, "src", "renderer", "public", "push.js"), "utf8");
  server = createServer((req, res) => {
    if (req.url === "/sw.js") res.writeHead(200, { "content-type": "text/javascript" }).end('importScripts("./push.js");\n');
    else if (req.url === "/push.js") res.writeHead(200, { "content-type": "text/javascript" }).end(handler);
    else res.writeHead(200, { "content-type": "text/html" }).end("<!doctype html><title>push</title><p>push test</p>");
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

describe("the service worker's push handler", () => {
  it("shows a question's notification by its tag and withdraws it on close", async () => {
    await serveWorker();
    const context = await e2e.context();
    await context.grantPermissions(["notifications"], { origin });
    const page = await e2e.open({ context, url: `${origin}/`, ready: false });
    const cdp = await context.newCDPSession(page);
    const registration = new Promise<string>((resolve) => {
      cdp.on("ServiceWorker.workerVersionUpdated", (event: { versions: { registrationId: string; status: string }[] }) => {
        const active = event.versions.find((v) => v.status === "activated");
        if (active) resolve(active.registrationId);
      });
    });
    await cdp.send("ServiceWorker.enable");
    await page.evaluate(async () => {
      await navigator.serviceWorker.register("/sw.js");
      await navigator.serviceWorker.ready;
    });
    const registrationId = await registration;
    const push = (message: unknown) => cdp.send("ServiceWorker.deliverPushMessage", { origin, registrationId, data: JSON.stringify(message) });
    const shown = () =>
      page.evaluate(async () => (await (await navigator.serviceWorker.ready).getNotifications()).map((n) => ({ title: n.title, body: n.body, tag: n.tag, data: n.data as unknown })));

    // One push at a time, each awaited until its notification shows: Chromium hands a push to the
    // worker on its own schedule, and a loaded machine (CI) may take a while.
    const tagged = async () => (await shown()).filter((n) => n.tag.startsWith("tag-"));
    let seen: unknown[] = [];
    const showing = (tags: string[], what: string) =>
      until(async () => {
        seen = await shown();
        const now = await tagged();
        return now.length === tags.length && tags.every((t) => now.some((n) => n.tag === t)) ? now : undefined;
      }, 20_000, () => `timed out waiting for ${what}; showing: ${JSON.stringify(seen)}`);
    await push({ type: "question", id: "q-1", tag: "tag-q1", title: "github asks", body: "Which branch?", url: `${origin}/#/q/q-1` });
    await showing(["tag-q1"], "the first notification");
    await push({ type: "question", id: "q-2", tag: "tag-q2", title: "codex asks for approval", body: "Allow codex to edit README.md?" });
    const both = await showing(["tag-q1", "tag-q2"], "two notifications");
    expect(both).toEqual(
      expect.arrayContaining([
        { title: "github asks", body: "Which branch?", tag: "tag-q1", data: { id: "q-1", url: `${origin}/#/q/q-1` } },
        { title: "codex asks for approval", body: "Allow codex to edit README.md?", tag: "tag-q2", data: { id: "q-2" } },
      ]),
    );

    // Nothing of another shape is shown. (For a push that shows nothing, Chromium may show its own
    // "updated in the background" notice: that is the browser's, not push.js's, and has no tag of ours.)
    await push({ type: "question", id: "q-3", tag: "tag-q3" });
    await push("not json at all");
    await push({ type: "close", id: "q-1", tag: "tag-q1" });
    const left = await showing(["tag-q2"], "the first one withdrawn");
    expect(left.map((n) => n.tag)).toEqual(["tag-q2"]);
    expect(e2e.errors(page)).toEqual([]);
  });
});
