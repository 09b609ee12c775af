// The Servers view (issues 8 and 9) through the whole App with the fake API: servers in trouble
// first, each with its next step in plain words and the action that helps; restart, enable,
// disable, sign in/out, remove after asking; tools folded per server with one search.
import { describe, it, expect } from "vitest";
import { render, screen, fireEvent, within, waitFor } from "@testing-library/svelte";
import App from "../../src/renderer/App.svelte";
import { fakeApi, ok } from "./fake-api";
import { card, openServers } from "./servers-app";
import type { Envelope } from "../../src/shared/contract";
import type { ServerView } from "../../src/shared/types";
import type { ToolInfo } from "../../src/shared/types";

function tool(server: string, name: string, description = ""): ToolInfo {
  return { name: `${server}_${name}`, server, tool: name, description, inputSchema: { type: "object", properties: {} } };
}

const connected: ServerView = { name: "files", state: "connected", transport: "stdio", protocol: "2025-11-25", toolCount: 2, tools: [tool("files", "read_file", "Reads a file"), tool("files", "echo", "Echoes back")] };
const missingCommand: ServerView = { name: "broken", state: "failed", error: 'command "nope-mcp" was not found', toolCount: 0, tools: [] };
const signIn: ServerView = { name: "linear", state: "needs-sign-in", transport: "streamable-http", toolCount: 0, tools: [] };
const secret: ServerView = { name: "github", state: "failed", error: 'header "Authorization" needs the secret "GITHUB_PAT", which is not set in the keychain', toolCount: 0, tools: [] };
const variable: ServerView = { name: "sentry", state: "failed", error: "env.SENTRY_TOKEN needs the environment variable SENTRY_TOKEN, which is not set", toolCount: 0, tools: [] };
const crashLoop: ServerView = { name: "flaky", state: "crash-loop", attempt: 5, error: "the server process exited with code 1", toolCount: 0, tools: [] };
const disabled: ServerView = { name: "old", state: "disabled", toolCount: 0, tools: [] };
const remote: ServerView = { name: "notion", state: "connected", transport: "streamable-http", toolCount: 1, tools: [tool("notion", "search", "Searches pages")] };

const open = openServers;
const order = () => within(screen.getByRole("list", { name: "Servers" })).getAllByRole("heading", { level: 2 }).map((h) => h.textContent);

describe("Servers view: trouble first, each with its next step", () => {
  it("lists failed, crash-loop, restarting and needs-sign-in servers before the others, in config order", async () => {
    const restarting: ServerView = { name: "wobbly", state: "restarting", attempt: 2, nextRetryAt: Date.now() + 5_000, error: "the server process exited with code 1", toolCount: 0, tools: [] };
    await open([connected, disabled, missingCommand, remote, crashLoop, restarting, signIn]);
    expect(order()).toEqual(["broken", "flaky", "wobbly", "linear", "files", "notion", "old"]);
  });

  it("command not found: asks whether it is installed, names the command, and Retry restarts it", async () => {
    const api = await open([connected, missingCommand]);
    const broken = card("broken");
    expect(broken.textContent).toContain("Exits at start: “nope-mcp” not found — is it installed?");
    await fireEvent.click(within(broken).getByRole("button", { name: "Retry" }));
    await waitFor(() => expect(api["servers:restart"]).toHaveBeenCalledWith({ name: "broken" }));
  });

  it("needs sign-in: says so and Sign in asks main to open the sign-in question", async () => {
    const api = await open([signIn]);
    const linear = card("linear");
    expect(linear.textContent).toContain("Needs sign-in");
    expect(within(linear).queryByRole("button", { name: "Sign out" })).toBeNull();
    await fireEvent.click(within(linear).getByRole("button", { name: "Sign in" }));
    await waitFor(() => expect(api["servers:signIn"]).toHaveBeenCalledWith({ name: "linear" }));
  });

  it("a 401 in a failed server's error also offers Sign in", async () => {
    await open([{ name: "jira", state: "failed", transport: "sse", error: "SSE error: Non-200 status code (401)", toolCount: 0, tools: [] }]);
    expect(card("jira").textContent).toContain("Needs sign-in");
    expect(within(card("jira")).getByRole("button", { name: "Sign in" })).toBeTruthy();
  });

  it("a missing secret is named and points to Settings → Secrets, which the button opens", async () => {
    await open([secret]);
    const github = card("github");
    expect(github.textContent).toContain("Missing secret GITHUB_PAT");
    expect(github.textContent).toContain("Settings → Secrets");
    await fireEvent.click(within(github).getByRole("button", { name: "Open Settings" }));
    expect(screen.getByRole("button", { name: "Settings" }).getAttribute("aria-current")).toBe("page");
    expect(await screen.findByRole("heading", { name: "Secrets" })).toBeTruthy();
  });

  it("a missing environment variable is named", async () => {
    await open([variable]);
    expect(card("sentry").textContent).toContain("Missing variable SENTRY_TOKEN");
    expect(card("sentry").textContent).toContain("The environment variable SENTRY_TOKEN is not set");
  });

  it("restarting: the attempt and the time to the next try, counting down", async () => {
    await open([{ name: "wobbly", state: "restarting", attempt: 3, nextRetryAt: Date.now() + 8_000, error: "the server process exited with code 1", toolCount: 0, tools: [] }]);
    expect(card("wobbly").textContent).toMatch(/Restarting \(attempt 3\), next try in [78] s/);
    expect(card("wobbly").textContent).toContain("Last error: the server process exited with code 1");
  });

  it("a remote server that cannot be reached: one sentence naming the host, the technical error behind a disclosure, and never a crash", async () => {
    await open([{ name: "linear", state: "crash-loop", transport: "streamable-http", attempt: 5, error: "stopped after 5 failures in a row; last: SSE error: TypeError: fetch failed: getaddrinfo ENOTFOUND mcp.linear.app", toolCount: 0, tools: [] }]);
    const linear = card("linear");
    expect(linear.textContent).toContain("Can't reach mcp.linear.app — check the network or the URL");
    expect(linear.textContent).toContain("Stopped after repeated failures");
    expect(linear.textContent).not.toMatch(/crash/i);
    const detail = linear.querySelector("details.server-error-detail")!;
    expect(detail.hasAttribute("open")).toBe(false);
    expect(detail.textContent).toContain("getaddrinfo ENOTFOUND mcp.linear.app");
  });

  it("crash-loop: stopped after repeated crashes, and Retry calls servers:restart", async () => {
    const api = await open([crashLoop]);
    const flaky = card("flaky");
    expect(flaky.textContent).toContain("Stopped after repeated crashes");
    await fireEvent.click(within(flaky).getByRole("button", { name: "Retry" }));
    await waitFor(() => expect(api["servers:restart"]).toHaveBeenCalledWith({ name: "flaky" }));
  });

  it("a crash-loop whose cause is known says both: stopped, and is it installed", async () => {
    await open([{ name: "gone", state: "crash-loop", attempt: 5, error: 'stopped after 5 failures in a row; last: command "gone-mcp" was not found', toolCount: 0, tools: [] }]);
    expect(card("gone").textContent).toContain("Stopped after repeated crashes");
    expect(card("gone").textContent).toContain("Exits at start: “gone-mcp” not found — is it installed?");
  });

  it("a broken config file shows its error without server actions", async () => {
    await open([{ name: "MCP config", state: "failed", error: "mcp.json line 3, column 5: expected a comma", toolCount: 0, tools: [] }, connected]);
    const entry = card("MCP config");
    expect(entry.textContent).toContain("The config file has an error");
    expect(entry.textContent).toContain("line 3, column 5");
    expect(within(entry).queryByRole("button")).toBeNull();
  });

  it("a refused action says why", async () => {
    const refused: Envelope<ServerView[]> = { ok: false, error: { code: "unsupported", message: "servers:restart: this companion was not started from a config file." } };
    await open([missingCommand], { "servers:restart": async () => refused });
    await fireEvent.click(within(card("broken")).getByRole("button", { name: "Retry" }));
    expect((await within(card("broken")).findByRole("alert")).textContent).toContain("not started from a config file");
  });
});

describe("Servers view: actions", () => {
  it("Restart, Disable and Enable call main and show the servers it returns", async () => {
    const api = await open([connected, disabled], {
      "servers:restart": async () => ok([connected, disabled]),
      "servers:setEnabled": async ({ name, enabled }) => ok([connected, disabled].map((s) => (s.name === name ? { ...s, state: enabled ? "connecting" : "disabled" } : s))),
    });
    await fireEvent.click(within(card("files")).getByRole("button", { name: "Restart" }));
    await waitFor(() => expect(api["servers:restart"]).toHaveBeenCalledWith({ name: "files" }));
    await fireEvent.click(within(card("files")).getByRole("button", { name: "Disable" }));
    await waitFor(() => expect(api["servers:setEnabled"]).toHaveBeenCalledWith({ name: "files", enabled: false }));
    await waitFor(() => expect(within(card("files")).getByRole("button", { name: "Enable" })).toBeTruthy());
    expect(within(card("old")).queryByRole("button", { name: "Restart" })).toBeNull();
    await fireEvent.click(within(card("old")).getByRole("button", { name: "Enable" }));
    await waitFor(() => expect(api["servers:setEnabled"]).toHaveBeenCalledWith({ name: "old", enabled: true }));
    await waitFor(() => expect(card("old").textContent).toContain("connecting"));
  });

  it("Remove asks first; Keep it does nothing, Yes, remove calls servers:remove", async () => {
    const api = await open([connected]);
    await fireEvent.click(within(card("files")).getByRole("button", { name: "Remove" }));
    const ask = within(card("files")).getByRole("group", { name: "Remove files?" });
    expect(ask.textContent).toContain("from the config file");
    await fireEvent.click(within(ask).getByRole("button", { name: "Keep it" }));
    expect(api["servers:remove"]).not.toHaveBeenCalled();
    expect(within(card("files")).queryByRole("group", { name: "Remove files?" })).toBeNull();
    await fireEvent.click(within(card("files")).getByRole("button", { name: "Remove" }));
    await fireEvent.click(within(card("files")).getByRole("button", { name: "Yes, remove" }));
    await waitFor(() => expect(api["servers:remove"]).toHaveBeenCalledWith({ name: "files" }));
  });

  it("Sign out is offered only where tokens are stored, and calls servers:signOut", async () => {
    const signedIn = { ...remote, signedIn: true };
    const unreachable: ServerView = { name: "far", state: "crash-loop", transport: "streamable-http", error: "getaddrinfo ENOTFOUND far.example", toolCount: 0, tools: [] };
    const api = await open([connected, signedIn, unreachable, { ...remote, name: "plain" }], { "servers:signOut": async () => ok([connected, signedIn]) });
    expect(within(card("files")).queryByRole("button", { name: "Sign out" })).toBeNull();
    // A remote server never signed in to (unreachable, or one with a header token) has nothing to sign out of.
    expect(within(card("far")).queryByRole("button", { name: "Sign out" })).toBeNull();
    expect(within(card("plain")).queryByRole("button", { name: "Sign out" })).toBeNull();
    await fireEvent.click(within(card("notion")).getByRole("button", { name: "Sign out" }));
    await waitFor(() => expect(api["servers:signOut"]).toHaveBeenCalledWith({ name: "notion" }));
  });
});

describe("Servers view: tools folded, with a search", () => {
  const many: ServerView = {
    name: "big",
    state: "connected",
    transport: "stdio",
    toolCount: 40,
    tools: Array.from({ length: 40 }, (_, i) => tool("big", `tool_${i}`, i === 7 ? "Creates a Jira issue" : "Does a thing")),
  };

  it("a short list starts unfolded; a long one starts folded with the count on its disclosure", async () => {
    await open([connected]);
    expect((within(card("files")).getByText("Tools (2)").closest("details") as HTMLDetailsElement).open).toBe(true);
    document.body.innerHTML = "";
    await open([connected, many]);
    const fold = within(card("big")).getByText("Tools (40)").closest("details") as HTMLDetailsElement;
    expect(fold.open).toBe(false);
    expect((within(card("files")).getByText("Tools (2)").closest("details") as HTMLDetailsElement).open).toBe(false);
  });

  it("the search filters tools by name or description across servers and opens the servers that match", async () => {
    await open([connected, many, remote]);
    const search = screen.getByRole("searchbox", { name: "Search tools" });
    await fireEvent.input(search, { target: { value: "jira" } });
    expect(screen.getByText("1 tool matches")).toBeTruthy();
    const big = card("big");
    const fold = within(big).getByText("Tools (1 of 40 match)").closest("details") as HTMLDetailsElement;
    expect(fold.open).toBe(true);
    expect(within(big).getAllByRole("heading", { level: 3 }).map((h) => h.textContent)).toEqual(["tool_7"]);
    expect((within(card("files")).getByText("Tools (0 of 2 match)").closest("details") as HTMLDetailsElement).open).toBe(false);
    await fireEvent.input(search, { target: { value: "ECHO" } });
    expect(within(card("files")).getAllByRole("heading", { level: 3 }).map((h) => h.textContent)).toEqual(["echo"]);
    await fireEvent.input(search, { target: { value: "" } });
    expect(within(card("big")).getByText("Tools (40)")).toBeTruthy();
  });
});
