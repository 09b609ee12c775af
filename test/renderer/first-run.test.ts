// The first run through the whole App with the fake API: with no config and no
// servers the Inbox and the Servers view show three ways in; "Try a question" starts the demo and
// runs its form tool so the question opens at once; Settings shows the config file in use.
import { describe, it, expect, vi, afterEach } from "vitest";
import { render, screen, fireEvent, within, waitFor } from "@testing-library/svelte";
import App from "../../src/renderer/App.svelte";
import { fakeApi, formEntry, ok, type FakeApi, type FakeServerView } from "./fake-api";
import type { ServerView } from "../../src/shared/types";

const CONFIG = "/home/ada/.config/toolnexus-companion/mcp.json";
const demo: FakeServerView = {
  name: "demo",
  state: "connected",
  transport: "stdio",
  toolCount: 2,
  tools: [
    { name: "demo_ask_coffee_order", server: "demo", tool: "ask_coffee_order", description: "Asks you what to brew", inputSchema: { type: "object", properties: {} } },
    { name: "demo_open_docs_page", server: "demo", tool: "open_docs_page", description: "Asks you to open a page", inputSchema: { type: "object", properties: {} } },
  ],
};

function start(overrides: Parameters<typeof fakeApi>[0] = {}): FakeApi {
  const api = fakeApi({ "app:firstRun": async () => ok({ firstRun: true, configPath: CONFIG }), ...overrides });
  render(App, { props: { connection: { api, mode: "electron" } } });
  return api;
}

afterEach(() => {
  Reflect.deleteProperty(navigator, "clipboard");
});

describe("first run", () => {
  it("the Inbox opens on three ways in: try a question, bring your servers, add one by hand", async () => {
    start();
    expect(await screen.findByRole("heading", { name: "Welcome: no servers yet" })).toBeTruthy();
    expect(screen.getByRole("button", { name: "Try a question" })).toBeTruthy();
    expect(screen.getByText("toolnexus-companion servers import --dry-run")).toBeTruthy();
    expect(screen.getByText(CONFIG)).toBeTruthy();
    // The Servers view shows the same panel while there is no server.
    await fireEvent.click(screen.getByRole("button", { name: "Servers" }));
    expect(await screen.findByRole("heading", { name: "Welcome: no servers yet" })).toBeTruthy();
  });

  it("Try a question starts the demo and runs its form tool; the question then opens in the Inbox", async () => {
    const api = start({ "servers:tryDemo": async () => ok([demo]), "tools:run": () => new Promise(() => {}) });
    await fireEvent.click(await screen.findByRole("button", { name: "Try a question" }));
    await waitFor(() => expect(api["servers:tryDemo"]).toHaveBeenCalled());
    await waitFor(() => expect(api["tools:run"]).toHaveBeenCalledWith({ tool: "demo_ask_coffee_order", args: {} }));
    // The demo is not a config of the person's own: the guidance stays until the question comes.
    expect(screen.getByRole("heading", { name: "Welcome: no servers yet" })).toBeTruthy();
    const question = formEntry({ type: "object", properties: { name: { type: "string", title: "Name on the cup" } } }, "What should I brew for you?");
    api.emit("inbox:event", { type: "added", entry: { ...question, source: { server: "demo", tool: "ask_coffee_order" } } });
    const form = await screen.findByRole("form", { name: "Question" });
    expect(within(form).getByRole("textbox", { name: "Name on the cup" })).toBeTruthy();
  });

  it("while there is no config file the demo is for this session: Restart, but no Disable or Remove", async () => {
    start({ "servers:list": async () => ok([demo]) });
    await fireEvent.click(screen.getByRole("button", { name: "Servers" }));
    const card = (await screen.findByRole("heading", { name: "demo", level: 2 })).closest("article")!;
    expect(within(card).getByRole("button", { name: "Restart" })).toBeTruthy();
    expect(within(card).queryByRole("button", { name: "Disable" })).toBeNull();
    expect(within(card).queryByRole("button", { name: "Remove" })).toBeNull();
    expect(card.textContent).toContain("For this session only");
  });

  it("a demo that cannot start says why", async () => {
    start({ "servers:tryDemo": async () => ({ ok: false, error: { code: "no-demo", message: "the demo server is not part of this installation" } }) });
    await fireEvent.click(await screen.findByRole("button", { name: "Try a question" }));
    expect((await screen.findByRole("alert")).textContent).toContain("not part of this installation");
  });

  it("Copy puts the import command on the clipboard", async () => {
    const writeText = vi.fn(async () => {});
    Object.defineProperty(navigator, "clipboard", { value: { writeText }, configurable: true });
    start();
    await fireEvent.click(await screen.findByRole("button", { name: "Copy the import command" }));
    expect(writeText).toHaveBeenCalledWith("toolnexus-companion servers import --dry-run");
    expect(await screen.findByText("Copied.")).toBeTruthy();
  });

  it("without a first run (a config exists) the Inbox shows its own empty state", async () => {
    start({ "app:firstRun": async () => ok({ firstRun: false, configPath: CONFIG }) });
    expect(await screen.findByText(/No questions waiting/)).toBeTruthy();
    expect(screen.queryByRole("heading", { name: "Welcome: no servers yet" })).toBeNull();
  });

  it("Settings shows the config file in use", async () => {
    start({ "app:firstRun": async () => ok({ firstRun: false, configPath: CONFIG }) });
    await fireEvent.click(screen.getByRole("button", { name: "Settings" }));
    const region = await screen.findByRole("region", { name: "Config file" });
    expect(region.textContent).toContain(CONFIG);
    expect(within(region).getByRole("button", { name: "Copy the config path" })).toBeTruthy();
  });
});
