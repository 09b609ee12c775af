// "Add a server" and "Edit" in the Servers view through the whole App with the fake API: the form
// sends what the person typed to servers:save, shows main's field errors next to their fields,
// loads an entry for Edit (kept secrets not shown), offers the keychain for a credential header;
// each card shows its command line or address; the demo offers Stop demo and nothing the config
// could not do. Main's own checks are tested in test/unit/main/mcp/config/form-handlers.test.ts.
import { describe, it, expect } from "vitest";
import { render, screen, fireEvent, within, waitFor } from "@testing-library/svelte";
import App from "../../src/renderer/App.svelte";
import { fakeApi, ok, settings, type FakeApi } from "./fake-api";
import type { ServerView } from "../../src/shared/types";
import type { ServerFormValue, ServerSaveResult } from "../../src/shared/server-form";

const files: ServerView = {
  name: "files",
  state: "connected",
  transport: "stdio",
  toolCount: 0,
  tools: [],
  target: { kind: "local", command: "npx", args: ["-y", "files server", "--api-key=•••"] },
};
const hosted: ServerView = { name: "hosted", state: "connected", transport: "streamable-http", toolCount: 0, tools: [], target: { kind: "remote", url: "https://mcp.example.com/mcp?token=•••" } };
const demo: ServerView = { name: "demo", state: "connected", transport: "stdio", toolCount: 0, tools: [], sessionOnly: true, target: { kind: "local", command: "/usr/bin/node", args: ["/app/src/demo/demo-server.mjs"] } };

async function open(list: ServerView[], overrides: Parameters<typeof fakeApi>[0] = {}): Promise<FakeApi> {
  const api = fakeApi({ "servers:list": async () => ok(list), ...overrides });
  render(App, { props: { connection: { api, mode: "electron" } } });
  await fireEvent.click(screen.getByRole("button", { name: "Servers" }));
  await screen.findByRole("list", { name: "Servers" });
  return api;
}
const card = (name: string) => screen.getByRole("heading", { name, level: 2 }).closest("article")! as HTMLElement;
const saved = (servers: ServerView[]): ServerSaveResult => ({ saved: true, fieldErrors: {}, storedSecrets: [], servers });
const type = (el: HTMLElement, value: string) => fireEvent.input(el, { target: { value } });

describe("server cards", () => {
  it("show the command line (masked parts as main sent them) or the address on one line", async () => {
    await open([files, hosted]);
    expect(within(card("files")).getByText("npx -y 'files server' --api-key=•••")).toBeTruthy();
    expect(within(card("hosted")).getByText("https://mcp.example.com/mcp?token=•••")).toBeTruthy();
  });

  it("the demo offers Stop demo, never Edit, Disable or Remove; Stop demo asks main", async () => {
    const api = await open([demo, files], { "servers:stopDemo": async () => ok([files]) });
    const d = card("demo");
    for (const name of ["Edit", "Disable", "Remove"]) expect(within(d).queryByRole("button", { name })).toBeNull();
    expect(within(card("files")).getByRole("button", { name: "Edit" })).toBeTruthy();
    await fireEvent.click(within(d).getByRole("button", { name: "Stop demo" }));
    await waitFor(() => expect(api["servers:stopDemo"]).toHaveBeenCalledTimes(1));
    await waitFor(() => expect(screen.queryByRole("heading", { name: "demo", level: 2 })).toBeNull());
  });
});

describe("Add a server", () => {
  it("sends a local server's command, argument rows and env rows; closes and says it was added", async () => {
    const api = await open([hosted], { "servers:save": async () => ok(saved([hosted, { ...files, name: "echo" }])) });
    await fireEvent.click(screen.getByRole("button", { name: "Add a server" }));
    const form = screen.getByRole("form", { name: "Add a server" });
    const f = within(form);
    expect(f.getByRole("textbox", { name: "Command" }).getAttribute("aria-describedby")).toBeTruthy();
    await type(f.getByRole("textbox", { name: "Name" }), "echo");
    await type(f.getByRole("textbox", { name: "Command" }), "node");
    await type(f.getByRole("textbox", { name: "Argument 1" }), "server.mjs");
    await fireEvent.click(f.getByRole("button", { name: "Add an argument" }));
    await type(f.getByRole("textbox", { name: "Argument 2" }), "--verbose");
    await fireEvent.click(f.getByRole("button", { name: "Add a variable" }));
    await type(f.getByRole("textbox", { name: "Variable 1 name" }), "MODE");
    await type(f.getByRole("textbox", { name: "Variable 1 value" }), "test");
    await fireEvent.click(f.getByRole("button", { name: "Add the server" }));
    await waitFor(() => expect(api["servers:save"]).toHaveBeenCalled());
    const sent = (api["servers:save"] as unknown as { mock: { calls: [{ original?: string; value: ServerFormValue }][] } }).mock.calls[0][0];
    expect(sent.original).toBeUndefined();
    expect(sent.value).toMatchObject({ name: "echo", kind: "local", command: "node", args: ["server.mjs", "--verbose"], env: [{ name: "MODE", value: "test" }] });
    await waitFor(() => expect(screen.queryByRole("form", { name: "Add a server" })).toBeNull());
    expect(screen.getAllByRole("status").some((s) => s.textContent?.includes('Added "echo": it starts in a moment.'))).toBe(true);
    expect(card("echo")).toBeTruthy();
  });

  it("shows main's errors next to their fields and keeps what was typed", async () => {
    const refused: ServerSaveResult = { saved: false, fieldErrors: { name: ['A server named "hosted" already exists: pick another name, or edit that one.'], "args.0": ["One line, without control characters."] }, storedSecrets: [], servers: [hosted] };
    await open([hosted], { "servers:save": async () => ok(refused) });
    await fireEvent.click(screen.getByRole("button", { name: "Add a server" }));
    const f = within(screen.getByRole("form", { name: "Add a server" }));
    await type(f.getByRole("textbox", { name: "Name" }), "hosted");
    await type(f.getByRole("textbox", { name: "Command" }), "node");
    await fireEvent.click(f.getByRole("button", { name: "Add the server" }));
    const name = f.getByRole("textbox", { name: "Name" });
    await waitFor(() => expect(name.getAttribute("aria-invalid")).toBe("true"));
    expect(name.getAttribute("aria-describedby")!.split(" ").map((i) => document.getElementById(i)?.textContent).join(" ")).toContain("already exists");
    expect(f.getByRole("textbox", { name: "Argument 1" }).getAttribute("aria-invalid")).toBe("true");
    await waitFor(() => expect(document.activeElement).toBe(name));
    expect(f.getByRole("textbox", { name: "Command" }).getAttribute("aria-invalid")).toBeNull();
    expect((f.getByRole("textbox", { name: "Command" }) as HTMLInputElement).value).toBe("node");
  });

  it("a remote server's Authorization header is offered the keychain, and the choice is sent", async () => {
    const api = await open([files], { "servers:save": async () => ok(saved([files])) });
    await fireEvent.click(screen.getByRole("button", { name: "Add a server" }));
    const f = within(screen.getByRole("form", { name: "Add a server" }));
    await type(f.getByRole("textbox", { name: "Name" }), "api");
    await fireEvent.click(f.getByRole("radio", { name: /On the web/ }));
    await type(f.getByRole("textbox", { name: "Address" }), "https://api.example.com/mcp");
    await fireEvent.click(f.getByRole("button", { name: "Add a header" }));
    await type(f.getByRole("textbox", { name: "Header 1 name" }), "Authorization");
    const keychain = f.getByRole("checkbox", { name: "Keep it in the keychain" }) as HTMLInputElement;
    expect(keychain.checked).toBe(true);
    // Typed as a password once it goes to the keychain: no textbox role.
    await type(f.getByLabelText("Header 1 value"), "Bearer tok-123");
    await fireEvent.click(f.getByRole("button", { name: "Add the server" }));
    await waitFor(() => expect(api["servers:save"]).toHaveBeenCalled());
    const sent = (api["servers:save"] as unknown as { mock: { calls: [{ value: ServerFormValue }][] } }).mock.calls[0][0];
    expect(sent.value).toMatchObject({ kind: "remote", url: "https://api.example.com/mcp", headers: [{ name: "Authorization", value: "Bearer tok-123", keychain: true }] });
  });
});

describe("Edit", () => {
  it("loads the entry, shows a kept value as kept, and saves under the original name", async () => {
    const entry: ServerFormValue = { name: "files", kind: "local", command: "npx", args: ["-y", "files server"], env: [{ name: "API_TOKEN", value: "", kept: true }], cwd: "", url: "", headers: [] };
    const api = await open([files], { "servers:entry": async () => ok(entry), "servers:save": async () => ok(saved([files])) });
    await fireEvent.click(within(card("files")).getByRole("button", { name: "Edit" }));
    const form = await screen.findByRole("form", { name: "Edit files" });
    const f = within(form);
    await waitFor(() => expect((f.getByRole("textbox", { name: "Command" }) as HTMLInputElement).value).toBe("npx"));
    expect(api["servers:entry"]).toHaveBeenCalledWith({ name: "files" });
    expect((f.getByRole("textbox", { name: "Name" }) as HTMLInputElement).readOnly).toBe(true);
    const kept = f.getByRole("textbox", { name: "Variable 1 value" }) as HTMLInputElement;
    expect(kept.value).toBe("");
    expect(kept.placeholder).toMatch(/kept/);
    await fireEvent.click(f.getByRole("button", { name: "Add an argument" }));
    await type(f.getByRole("textbox", { name: "Argument 3" }), "--read-only");
    await fireEvent.click(f.getByRole("button", { name: "Save changes" }));
    await waitFor(() => expect(api["servers:save"]).toHaveBeenCalled());
    const sent = (api["servers:save"] as unknown as { mock: { calls: [{ original?: string; value: ServerFormValue }][] } }).mock.calls[0][0];
    expect(sent.original).toBe("files");
    expect(sent.value.args).toEqual(["-y", "files server", "--read-only"]);
    expect(sent.value.env).toEqual([{ name: "API_TOKEN", value: "", kept: true }]);
    await waitFor(() => expect(screen.queryByRole("form", { name: "Edit files" })).toBeNull());
  });
});

describe("without a keychain", () => {
  it("offers no keychain for a header and says a typed value goes into the file", async () => {
    const noKeychain = { ...settings, keychain: { available: false, detail: "No keychain in use" } };
    await open([files], { "settings:get": async () => ok(noKeychain) });
    await fireEvent.click(screen.getByRole("button", { name: "Add a server" }));
    const f = within(screen.getByRole("form", { name: "Add a server" }));
    await fireEvent.click(f.getByRole("radio", { name: /On the web/ }));
    await fireEvent.click(f.getByRole("button", { name: "Add a header" }));
    await type(f.getByRole("textbox", { name: "Header 1 name" }), "Authorization");
    expect(f.queryByRole("checkbox", { name: "Keep it in the keychain" })).toBeNull();
    expect(f.getByText(/There is no keychain here/)).toBeTruthy();
  });
});

describe("on the first run", () => {
  it("Add a server is offered beside the first-run panel; once added, the list takes its place", async () => {
    let written = false;
    const api = fakeApi({
      "servers:list": async () => ok([]),
      // Main's answer once the add has created the file.
      "app:firstRun": async () => ok({ firstRun: !written, configPath: "/home/u/.config/toolnexus-companion/mcp.json" }),
      "servers:save": async () => ((written = true), ok(saved([{ ...files, name: "echo" }]))),
    });
    render(App, { props: { connection: { api, mode: "electron" } } });
    await fireEvent.click(screen.getByRole("button", { name: "Servers" }));
    await fireEvent.click(await screen.findByRole("button", { name: "Add a server" }));
    const f = within(screen.getByRole("form", { name: "Add a server" }));
    await type(f.getByRole("textbox", { name: "Name" }), "echo");
    await type(f.getByRole("textbox", { name: "Command" }), "node");
    await fireEvent.click(f.getByRole("button", { name: "Add the server" }));
    await screen.findByRole("list", { name: "Servers" });
    expect(within(card("echo")).getByRole("button", { name: "Edit" })).toBeTruthy();
    expect(screen.queryByRole("heading", { name: "Welcome: no servers yet" })).toBeNull();
  });
});
