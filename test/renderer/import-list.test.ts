// In-app import through the whole App with the fake API: the first run lists what other apps hold
// per client and file, clashes unticked with why, skipped ones with the reason; "Import N servers"
// sends the ticked names with the plan's fingerprint; a stale plan is refused and reloaded; the
// Servers view opens the same list.
import { describe, it, expect } from "vitest";
import { render, screen, fireEvent, within, waitFor } from "@testing-library/svelte";
import App from "../../src/renderer/App.svelte";
import { fakeApi, ok, type FakeApi } from "./fake-api";
import type { ServerView } from "../../src/shared/types";
import type { ServerImportPlan } from "../../src/shared/server-import";

const CONFIG = "/home/ada/.config/toolnexus-companion/mcp.json";
const plan = (fingerprint = "fp1"): ServerImportPlan => ({
  configPath: CONFIG,
  fingerprint,
  groups: [
    {
      client: "claude-desktop",
      label: "Claude Desktop",
      file: "/home/ada/.config/Claude/claude_desktop_config.json",
      scope: "user",
      servers: [{ name: "github", clientName: "github", type: "local", command: "npx", args: ["-y", "server-github"], action: "new" }],
    },
    {
      client: "cursor",
      label: "Cursor",
      file: "/home/ada/.cursor/mcp.json",
      scope: "user",
      servers: [
        { name: "github@cursor", clientName: "github", type: "local", command: "docker", args: ["run", "gh"], action: "new", clash: true, reason: 'Another server is already called "github": this one would be added as "github@cursor".' },
        { name: "picker", clientName: "picker", type: null, action: "skipped", reason: "uses ${command:pickServer}, which only the editor can resolve" },
        { name: "sentry", clientName: "sentry", type: "remote", url: "https://mcp.sentry.dev/mcp", action: "existing", reason: 'Already in the companion\'s config as "sentry".' },
      ],
    },
  ],
});
const github: ServerView = { name: "github", state: "connected", transport: "stdio", toolCount: 0, tools: [] };

function start(overrides: Parameters<typeof fakeApi>[0] = {}, firstRun = true): FakeApi {
  const api = fakeApi({ "app:firstRun": async () => ok({ firstRun, configPath: CONFIG }), "servers:importPlan": async () => ok(plan()), ...overrides });
  render(App, { props: { connection: { api, mode: "electron" } } });
  return api;
}

describe("import from other apps", () => {
  it("the first run lists each client's file with its servers; clashes start unticked and say why", async () => {
    start();
    const region = await screen.findByRole("region", { name: "Found in your other apps" });
    const claude = await within(region).findByRole("group", { name: /Claude Desktop.*claude_desktop_config\.json/ });
    expect((within(claude).getByRole("checkbox", { name: "github" }) as HTMLInputElement).checked).toBe(true);
    expect(within(claude).getByText("npx -y server-github")).toBeTruthy();
    const cursor = within(region).getByRole("group", { name: /Cursor.*\.cursor\/mcp\.json/ });
    const clash = within(cursor).getByRole("checkbox", { name: "github@cursor" }) as HTMLInputElement;
    expect(clash.checked).toBe(false);
    expect(clash.getAttribute("aria-describedby")).toBeTruthy();
    expect(within(cursor).getByText(/already called "github"/)).toBeTruthy();
    // Skipped and existing: shown, with why, and nothing to tick.
    expect(within(cursor).getByText("uses ${command:pickServer}, which only the editor can resolve")).toBeTruthy();
    expect(within(cursor).getByText("Already added")).toBeTruthy();
    expect(within(cursor).queryByRole("checkbox", { name: "picker" })).toBeNull();
    expect(within(cursor).queryByRole("checkbox", { name: "sentry" })).toBeNull();
    expect(within(region).getByRole("button", { name: "Import 1 server" })).toBeTruthy();
    await fireEvent.click(clash);
    expect(within(region).getByRole("button", { name: "Import 2 servers" })).toBeTruthy();
  });

  it("Import sends the ticked names with the plan's fingerprint, then shows the Servers view", async () => {
    const api = start({ "servers:import": async () => ok({ configPath: CONFIG, added: ["github"], servers: [github] }) });
    const region = await screen.findByRole("region", { name: "Found in your other apps" });
    await fireEvent.click(await within(region).findByRole("button", { name: "Import 1 server" }));
    await waitFor(() => expect(api["servers:import"]).toHaveBeenCalledWith({ pick: ["github"], fingerprint: "fp1" }));
    await waitFor(() => expect(screen.getByRole("list", { name: "Servers" })).toBeTruthy());
    expect(within(screen.getByRole("list", { name: "Servers" })).getByText("github")).toBeTruthy();
    // What was imported is said where the person now is, until dismissed.
    const note = screen.getAllByRole("status").find((s) => s.textContent?.includes("Imported 1 server: github. It starts in a moment."));
    expect(note).toBeTruthy();
    await fireEvent.click(within(note!).getByRole("button", { name: "Dismiss" }));
    expect(screen.queryAllByRole("status").some((s) => s.textContent?.includes("Imported 1 server"))).toBe(false);
  });

  it("a stale list is refused in main's words and the new list is shown", async () => {
    let calls = 0;
    const api = start({
      "servers:importPlan": async () => ok(plan(++calls === 1 ? "old" : "new")),
      "servers:import": async () => ({ ok: false, error: { code: "plan-changed", message: "The servers found or the companion's config changed since the list was shown; nothing was written." } }),
    });
    const region = await screen.findByRole("region", { name: "Found in your other apps" });
    await fireEvent.click(await within(region).findByRole("button", { name: "Import 1 server" }));
    expect((await within(region).findByRole("alert")).textContent).toContain("nothing was written");
    await waitFor(() => expect(api["servers:importPlan"]).toHaveBeenCalledTimes(2));
  });

  it("the Servers view offers 'Import from other apps', which opens the same list", async () => {
    start({ "servers:list": async () => ok([github]) }, false);
    await fireEvent.click(await screen.findByRole("button", { name: "Servers" }));
    const action = await screen.findByRole("button", { name: "Import from other apps" });
    expect(screen.queryByRole("region", { name: "Found in your other apps" })).toBeNull();
    await fireEvent.click(action);
    const region = await screen.findByRole("region", { name: "Found in your other apps" });
    expect(await within(region).findByRole("group", { name: /Cursor/ })).toBeTruthy();
  });

  it("nothing found says so, with no import button", async () => {
    start({ "servers:importPlan": async () => ok({ configPath: CONFIG, groups: [], fingerprint: "fp" }) });
    const region = await screen.findByRole("region", { name: "Found in your other apps" });
    expect(await within(region).findByText(/No MCP servers were found/)).toBeTruthy();
    expect(within(region).queryByRole("button", { name: /^Import/ })).toBeNull();
  });
});
