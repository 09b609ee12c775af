// Views that stay still: nothing folds, loses what was typed or keeps an old scroll position
// because something else happened or the person looked elsewhere.
import { describe, it, expect } from "vitest";
import { render, screen, fireEvent, within, waitFor } from "@testing-library/svelte";
import App from "../../src/renderer/App.svelte";
import { fakeApi, ok } from "./fake-api";
import { card, openServers } from "./servers-app";
import type { ServerView } from "../../src/shared/types";
import type { ToolInfo } from "../../src/shared/types";

function tool(server: string, name: string, inputSchema: Record<string, unknown> = { type: "object", properties: {} }): ToolInfo {
  return { name: `${server}_${name}`, server, tool: name, description: "", inputSchema };
}

const files: ServerView = { name: "files", state: "connected", transport: "stdio", toolCount: 2, tools: [tool("files", "read_file", { type: "object", properties: { path: { type: "string", title: "Path" } } }), tool("files", "echo")] };
const many: ServerView = { name: "big", state: "connected", transport: "stdio", toolCount: 40, tools: Array.from({ length: 40 }, (_, i) => tool("big", `tool_${i}`)) };

const open = openServers;
const fold = (name: string, text: string) => within(card(name)).getByText(text).closest("details") as HTMLDetailsElement;

describe("the Servers view stays as the person left it", () => {
  it("a second server connecting with many tools does not fold the first server's open list", async () => {
    const api = await open([files]);
    expect(fold("files", "Tools (2)").open).toBe(true);
    api.emit("servers:changed", [files, many]);
    await screen.findByRole("heading", { name: "big", level: 2 });
    expect(fold("files", "Tools (2)").open).toBe(true);
    // The newcomer starts folded: the whole list is long now.
    expect(fold("big", "Tools (40)").open).toBe(false);
  });

  it("typed tool arguments survive going to the Inbox and back", async () => {
    await open([files]);
    const runner = screen.getByRole("form", { name: "Run read_file" });
    await fireEvent.click(within(runner).getByText("Arguments"));
    await fireEvent.input(await within(runner).findByRole("textbox", { name: "Path" }), { target: { value: "/etc/hostname" } });
    await fireEvent.click(screen.getByRole("button", { name: "Inbox" }));
    await waitFor(() => expect(screen.queryByRole("list", { name: "Servers" })).toBeNull());
    await fireEvent.click(screen.getByRole("button", { name: "Servers" }));
    const again = await screen.findByRole("form", { name: "Run read_file" });
    // Its fold is open again, the schema fetched again, and the typed value given back.
    expect(((await within(again).findByRole("textbox", { name: "Path" })) as HTMLInputElement).value).toBe("/etc/hostname");
  });
});

describe("switching views", () => {
  it("starts the new view at its top", async () => {
    let scrollTop = 0;
    const page = document.documentElement;
    Object.defineProperty(page, "scrollTop", { configurable: true, get: () => scrollTop, set: (v: number) => (scrollTop = v) });
    try {
      await open([files]);
      scrollTop = 900;
      await fireEvent.click(screen.getByRole("button", { name: "Settings" }));
      await waitFor(() => expect(scrollTop).toBe(0));
    } finally {
      delete (page as unknown as Record<string, unknown>).scrollTop;
    }
  });
});

describe("the first-run guidance", () => {
  it("stays in the Inbox after Try a question, while the person has no config of their own", async () => {
    const demo: ServerView = { name: "demo", state: "connected", transport: "stdio", toolCount: 1, tools: [tool("demo", "ask_coffee_order")] };
    const api = fakeApi({ "app:firstRun": async () => ok({ firstRun: true, configPath: "/home/u/.config/toolnexus-companion/mcp.json" }), "servers:list": async () => ok([demo]) });
    render(App, { props: { connection: { api, mode: "electron" } } });
    expect(await screen.findByRole("heading", { name: "Welcome: no servers yet" })).toBeTruthy();
  });
});
