import { describe, expect, it, vi } from "vitest";
import { fireEvent, render, screen, waitFor, within } from "@testing-library/svelte";
import App from "../../src/renderer/App.svelte";
import Agents from "../../src/renderer/components/Agents.svelte";
import { callOf, fakeApi } from "./fake-api";
import type { AgentsApplyArg, AgentsPlan, AgentsPlanArg, AgentView } from "../../src/shared/agents";
import type { Envelope } from "../../src/shared/contract";

const ok = <T,>(value: T): Envelope<T> => ({ ok: true, value });

function agent(id: string, label: string, over: Partial<AgentView> = {}): AgentView {
  return { id, label, found: true, connections: [], stale: [], defaultVia: "shim", http: "env", docs: "https://example.com", errors: [], ...over };
}

const AGENTS: AgentView[] = [
  agent("claude-code", "Claude Code", { hook: { installed: [] } }),
  agent("cursor", "Cursor", { connections: [{ file: "/home/u/.cursor/mcp.json", name: "toolnexus", scope: "user" }] }),
  agent("zed", "Zed", { http: "literal" }),
  agent("windsurf", "Windsurf", { found: false }),
];

const DIFF = '--- /home/u/.claude.json\n+++ /home/u/.claude.json\n@@ -1,3 +1,7 @@\n {\n+  "toolnexus": {}\n }\n';

function planFor(arg: AgentsPlanArg): AgentsPlan {
  const label = AGENTS.find((a) => a.id === arg.agent)!.label;
  const base = { agent: arg.agent, label, connect: arg.connect, via: arg.via ?? "shim", hooks: arg.hooks === true, fingerprint: `fp-${arg.agent}-${arg.via}-${arg.hooks}-${arg.literalToken}` };
  if (arg.agent === "zed" && arg.via === "http" && !arg.literalToken) {
    const message = "Zed expands no variables in its settings, so over HTTP the gateway token would be written in plain text.";
    return { ...base, files: [], notes: [message], choice: { kind: "literal-token", message } };
  }
  const files: AgentsPlan["files"] = [{ file: "/home/u/.claude.json", what: "server", note: 'adds "toolnexus"', changes: true, creates: false, deletes: false, diff: DIFF, backup: "/home/u/.claude.json.bak-<time>" }];
  if (arg.hooks) files.push({ file: "/home/u/.claude/settings.json", what: "hook", note: "adds the PermissionRequest hook", changes: true, creates: true, deletes: false, diff: "+hook\n" });
  return { ...base, files, notes: [arg.literalToken ? "Only a literal token is possible here" : "No token is written to the file."] };
}

type Reply = (arg: any) => Promise<Envelope<any>>;

/** The three agents channels as mocks, so a test can ask what the view sent on each. */
function fakeClient(over: Partial<Record<"list" | "plan" | "apply", Reply>> = {}) {
  return {
    list: vi.fn(async () => ok(AGENTS)),
    plan: vi.fn(async (arg: AgentsPlanArg) => ok(planFor(arg))),
    apply: vi.fn(async (arg: AgentsApplyArg) =>
      ok({ agent: arg.agent, written: [{ file: "/home/u/.claude.json", backup: "/home/u/.claude.json.bak-20261130T120000Z" }], notes: ["Restart Claude Code to pick it up."], agents: AGENTS.map((a) => (a.id === arg.agent ? { ...a, connections: [{ file: "/home/u/.claude.json", name: "toolnexus", scope: "user" }] } : a)) }),
    ),
    ...over,
  };
}

function renderAgents(client: ReturnType<typeof fakeClient>) {
  render(Agents, { props: { call: callOf({ "agents:list": client.list, "agents:plan": client.plan, "agents:apply": client.apply }) } });
}

const card = (name: string) => screen.getByRole("article", { name });

describe("Agents view", () => {
  it("lists agents with their state; only found agents offer Connect/Disconnect; the hook box only for Claude Code and Codex", async () => {
    renderAgents(fakeClient());
    const items = await within(await screen.findByRole("list", { name: "Agents" })).findAllByRole("listitem");
    expect(items).toHaveLength(4);
    expect(within(card("Cursor")).getByText("Connected")).toBeTruthy();
    expect(within(card("Claude Code")).getByText("Not connected")).toBeTruthy();
    expect(within(card("Claude Code")).getByText(/Permission hook: not installed/)).toBeTruthy();
    expect(within(card("Windsurf")).getByText("Not found on this machine")).toBeTruthy();
    expect(within(card("Windsurf")).queryByRole("button")).toBeNull();
    expect(within(card("Claude Code")).getByRole("checkbox", { name: "With permission prompts" })).toBeTruthy();
    expect(within(card("Cursor")).queryByRole("checkbox")).toBeNull();
    expect(screen.getByRole("button", { name: "Disconnect Cursor" })).toBeTruthy();
  });

  it("Connect shows the plan (file, backup, diff, notes) and writes nothing until Apply; Apply sends the plan's fingerprint", async () => {
    const client = fakeClient();
    renderAgents(client);
    await fireEvent.click(await screen.findByRole("checkbox", { name: "With permission prompts" }));
    await fireEvent.click(screen.getByRole("button", { name: "Connect Claude Code" }));
    const region = await screen.findByRole("region", { name: "Planned change for Claude Code" });
    expect(client.plan).toHaveBeenCalledWith({ agent: "claude-code", connect: true, via: "shim", hooks: true });
    expect(within(region).getByLabelText("Changes to /home/u/.claude.json").textContent).toContain('+  "toolnexus": {}');
    expect(within(region).getByText("/home/u/.claude.json.bak-<time>")).toBeTruthy();
    expect(within(region).getByText(/will be created/)).toBeTruthy();
    expect(within(region).getByText("No token is written to the file.")).toBeTruthy();
    expect(client.apply).not.toHaveBeenCalled();

    await fireEvent.click(within(region).getByRole("button", { name: "Apply" }));
    await waitFor(() => expect(client.apply).toHaveBeenCalledTimes(1));
    expect(client.apply).toHaveBeenCalledWith({ agent: "claude-code", connect: true, via: "shim", hooks: true, fingerprint: "fp-claude-code-shim-true-undefined" });
    const status = await screen.findByRole("status");
    expect(status.textContent).toContain("/home/u/.claude.json.bak-20261130T120000Z");
    expect(status.textContent).toContain("Restart Claude Code");
    expect(within(card("Claude Code")).getByText("Connected")).toBeTruthy();
    expect(screen.queryByRole("region", { name: "Planned change for Claude Code" })).toBeNull();
  });

  it("Cancel closes the plan and writes nothing", async () => {
    const client = fakeClient();
    renderAgents(client);
    await fireEvent.click(await screen.findByRole("button", { name: "Connect Cursor" }));
    const region = await screen.findByRole("region", { name: "Planned change for Cursor" });
    await fireEvent.click(within(region).getByRole("button", { name: "Cancel" }));
    expect(screen.queryByRole("region", { name: "Planned change for Cursor" })).toBeNull();
    expect(client.apply).not.toHaveBeenCalled();
  });

  it("Zed over HTTP: no Apply until the person chooses; each choice re-plans with it", async () => {
    const client = fakeClient();
    renderAgents(client);
    await screen.findByRole("list", { name: "Agents" });
    await fireEvent.change(screen.getByRole("combobox", { name: "How Zed reaches the companion" }), { target: { value: "http" } });
    await fireEvent.click(screen.getByRole("button", { name: "Connect Zed" }));
    const region = await screen.findByRole("region", { name: "Planned change for Zed" });
    expect(within(region).getByRole("group", { name: "Choose how the token is kept" }).textContent).toMatch(/plain text/);
    expect(within(region).queryByRole("button", { name: "Apply" })).toBeNull();

    await fireEvent.click(within(region).getByRole("button", { name: "Write the token in plain text" }));
    await waitFor(() => expect(client.plan).toHaveBeenLastCalledWith({ agent: "zed", connect: true, via: "http", literalToken: true }));
    const chosen = await screen.findByRole("region", { name: "Planned change for Zed" });
    expect(await within(chosen).findByText("Only a literal token is possible here")).toBeTruthy();
    expect(within(chosen).getByRole("button", { name: "Apply" })).toBeTruthy();

    await fireEvent.click(screen.getByRole("button", { name: "Connect Zed" }));
    await within(await screen.findByRole("region", { name: "Planned change for Zed" })).findByRole("group", { name: "Choose how the token is kept" });
    await fireEvent.click(screen.getByRole("button", { name: "Use the connect shim instead" }));
    await waitFor(() => expect(client.plan).toHaveBeenLastCalledWith({ agent: "zed", connect: true, via: "shim" }));
  });

  it("a refused apply (file changed) is said in an alert, Apply is withheld, and the new plan can be shown", async () => {
    const client = fakeClient({
      apply: vi.fn(async () => ({ ok: false, error: { code: "plan-changed", message: "Cursor's files changed since the change was shown; nothing was written." } }) as Envelope<never>),
    });
    renderAgents(client);
    await fireEvent.click(await screen.findByRole("button", { name: "Connect Cursor" }));
    const region = await screen.findByRole("region", { name: "Planned change for Cursor" });
    await fireEvent.click(await within(region).findByRole("button", { name: "Apply" }));
    expect((await within(region).findByRole("alert")).textContent).toMatch(/changed since the change was shown/);
    expect((within(region).getByRole("button", { name: "Apply" }) as HTMLButtonElement).disabled).toBe(true);
    await fireEvent.click(within(region).getByRole("button", { name: "Show the new plan" }));
    await waitFor(() => expect(client.plan).toHaveBeenCalledTimes(2));
    expect((await within(screen.getByRole("region", { name: "Planned change for Cursor" })).findByRole("button", { name: "Apply" }) as HTMLButtonElement).disabled).toBe(false);
  });

  it("a companion that refuses agents:list says so instead of listing nothing", async () => {
    renderAgents(fakeClient({ list: async () => ({ ok: false, error: { code: "agents-unavailable", message: "This companion cannot connect agents yet." } }) }));
    expect((await screen.findByRole("alert")).textContent).toMatch(/cannot connect agents yet/);
  });

  it("the long-waits switch writes the agent's setting and shows what the companion says; a refused write keeps it as it was", async () => {
    const waiting = AGENTS.map((a) => ({ ...a, longWaits: false }));
    const longWaits = vi.fn(async (arg: { agent: string; on: boolean }) => ok(waiting.map((a) => (a.id === arg.agent ? { ...a, longWaits: arg.on } : a))));
    render(Agents, { props: { call: callOf({ "agents:list": async () => ok(waiting), "agents:longWaits": longWaits }) } });
    const box = (await within(await screen.findByRole("article", { name: "Claude Code" })).findByRole("checkbox", { name: "Wait past a minute for my answers" })) as HTMLInputElement;
    expect(box.checked).toBe(false);
    expect(box.getAttribute("aria-describedby")).toBeTruthy();
    expect(document.getElementById(box.getAttribute("aria-describedby")!)?.textContent).toMatch(/Most agents give up on a call after their own timeout/);
    // Not offered for an agent this machine does not have.
    expect(within(card("Windsurf")).queryByRole("checkbox")).toBeNull();
    await fireEvent.click(box);
    expect(longWaits).toHaveBeenCalledWith({ agent: "claude-code", on: true });
    await waitFor(() => expect(box.checked).toBe(true));

    longWaits.mockImplementationOnce(async () => ({ ok: false, error: { code: "cannot-edit", message: "/home/u/mcp.json: line 3: not JSON" } }) as never);
    await fireEvent.click(box);
    expect((await within(card("Claude Code")).findByRole("alert")).textContent).toMatch(/not JSON/);
    expect(box.checked).toBe(true);
  });

  it("the app's Agents tab shows the view over the companion's agents:list", async () => {
    const api = fakeApi({ "agents:list": async () => ok(AGENTS) });
    render(App, { props: { connection: { api, mode: "electron" } } });
    const tab = within(screen.getByRole("navigation", { name: "Main" })).getByRole("button", { name: "Agents" });
    await fireEvent.click(tab);
    expect(tab.getAttribute("aria-current")).toBe("page");
    expect(await within(await screen.findByRole("list", { name: "Agents" })).findAllByRole("listitem")).toHaveLength(4);
    expect(api.fn("agents:list")).toHaveBeenCalled();
  });
});
