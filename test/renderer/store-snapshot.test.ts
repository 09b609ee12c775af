// The page asks main for snapshots (on start and on reconnect) while main keeps sending events. A
// snapshot asked for before an event can arrive after it; it must not put back the older state.
import { describe, it, expect } from "vitest";
import { Page } from "../../src/renderer/lib/page.svelte";
import { fakeApi, formEntry, ok, settings } from "./fake-api";
import type { Envelope, Settings } from "../../src/shared/contract";
import type { ServerView } from "../../src/shared/types";
import type { PendingEntry } from "../../src/shared/types";

/** A promise the test settles by hand, to hold a reply until events have come in. */
function held<T>() {
  let release!: (value: T) => void;
  const promise = new Promise<T>((r) => (release = r));
  return { promise, release };
}

const server = (name: string): ServerView => ({ name, state: "connected", transport: "stdio", toolCount: 0, tools: [] });

describe("page: snapshots and events", () => {
  it("a question that arrives while the Inbox snapshot is on its way stays listed", async () => {
    const reply = held<Envelope<PendingEntry[]>>();
    const api = fakeApi({ "inbox:list": () => reply.promise });
    const page = new Page(api);
    const stop = page.start();
    const question = formEntry({ type: "object", properties: {} });
    api.emit("inbox:event", { type: "added", entry: question });
    expect(page.inbox.pending.map((e) => e.request.id)).toEqual([question.request.id]);
    reply.release(ok([])); // taken before the question came
    await new Promise((r) => setTimeout(r, 0));
    expect(page.inbox.pending.map((e) => e.request.id)).toEqual([question.request.id]);
    stop();
  });

  it("a question answered while the snapshot is on its way is not put back", async () => {
    const question = formEntry({ type: "object", properties: {} });
    const reply = held<Envelope<PendingEntry[]>>();
    const api = fakeApi({ "inbox:list": () => reply.promise });
    const page = new Page(api);
    const stop = page.start();
    api.emit("inbox:event", { type: "answered", id: question.request.id, by: "page" } as never);
    reply.release(ok([question])); // taken before it was answered
    await new Promise((r) => setTimeout(r, 0));
    expect(page.inbox.pending).toEqual([]);
    stop();
  });

  it("the Inbox shows as soon as its snapshot comes, without waiting for the settings", async () => {
    const question = formEntry({ type: "object", properties: {} });
    const slowSettings = held<Envelope<Settings>>();
    const api = fakeApi({ "inbox:list": async () => ok([question]), "settings:get": () => slowSettings.promise });
    const page = new Page(api);
    const stop = page.start();
    await new Promise((r) => setTimeout(r, 0));
    expect(page.inbox.pending.map((e) => e.request.id)).toEqual([question.request.id]);
    slowSettings.release(ok(settings));
    stop();
  });

  it("servers, settings and rules from events win over an older snapshot", async () => {
    const servers = held<Envelope<ServerView[]>>();
    const settingsReply = held<Envelope<Settings>>();
    const api = fakeApi({ "servers:list": () => servers.promise, "settings:get": () => settingsReply.promise });
    const page = new Page(api);
    const stop = page.start();
    api.emit("servers:changed", [server("new")]);
    api.emit("settings:changed", { ...settings, notificationsPaused: true });
    servers.release(ok([server("old")]));
    settingsReply.release(ok(settings));
    await new Promise((r) => setTimeout(r, 0));
    expect(page.servers.list.map((s) => s.name)).toEqual(["new"]);
    expect(page.settings.value?.notificationsPaused).toBe(true);
    stop();
  });
});
