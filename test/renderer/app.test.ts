import { describe, it, expect, vi } from "vitest";
import { render, screen, fireEvent, within, waitFor } from "@testing-library/svelte";
import App from "../../src/renderer/App.svelte";
import { fakeApi, entry, formEntry, ok, settings, type FakeServerView } from "./fake-api";
import { everythingSchema } from "./fixtures/everything-elicitation";
import type { ServerView } from "../../src/shared/types";
import type { ToolRunResult } from "../../src/shared/types";

function start(api = fakeApi()) {
  render(App, { props: { connection: { api, mode: "electron" } } });
  return api;
}

const servers: FakeServerView[] = [
  {
    name: "everything",
    state: "connected",
    transport: "stdio",
    toolCount: 2,
    tools: [
      {
        name: "everything_trigger-elicitation-request",
        server: "everything",
        tool: "trigger-elicitation-request",
        description: "Trigger a Request from the Server for User Elicitation",
        inputSchema: { type: "object", properties: {} },
      },
      {
        name: "everything_echo",
        server: "everything",
        tool: "echo",
        description: "Echoes back the input",
        inputSchema: { type: "object", properties: { message: { type: "string", description: "Message to echo" } }, required: ["message"] },
      },
    ],
  },
  { name: "broken", state: "failed", error: "spawn nope ENOENT", toolCount: 0, tools: [] },
];

describe("App: inbox", () => {
  it("lists pending questions in arrival order with who asks, and opens the selected one", async () => {
    const first = formEntry({ type: "object", properties: { a: { type: "string", title: "First field" } } }, "First question");
    const second = { ...entry({ kind: "authorization", prompt: "Second question", url: "https://example.com" }), source: { server: "github" } };
    second.receivedAt = first.receivedAt + 10;
    const api = start(fakeApi({ "inbox:list": async () => ok([second, first]) }));
    const list = await screen.findByRole("list", { name: "Pending questions" });
    await waitFor(() => expect(within(list).getAllByRole("button")).toHaveLength(2));
    const items = within(list).getAllByRole("button");
    // Its kind, its server, and the agent in words (item layout: kind, server, prompt, agent, age).
    expect(items[0].textContent).toContain("Form");
    expect(items[0].textContent).toContain("everything");
    expect(items[0].textContent).toContain("for claude-code");
    expect(items[1].textContent).toContain("Link");
    expect(items[0].textContent).toContain("First question");
    expect(items[0].textContent).toContain("just now");
    expect(items[1].textContent).toContain("github");
    // The oldest question is shown first.
    expect(screen.getByRole("form", { name: "Question" })).toBeTruthy();
    await fireEvent.click(items[1]);
    expect(screen.getByRole("region", { name: "Authorization request" })).toBeTruthy();
    expect(items[1].getAttribute("aria-current")).toBe("true");
    expect(api["inbox:list"]).toHaveBeenCalledTimes(1);
  });

  it("adds a question that arrives and removes it once answered here", async () => {
    const api = start();
    await waitFor(() => expect(api["inbox:list"]).toHaveBeenCalled());
    const e = formEntry({ type: "object", properties: {} }, "Arrived later");
    api.emit("inbox:event", { type: "added", entry: e });
    await screen.findByRole("form", { name: "Question" });
    expect(screen.getByRole("button", { name: "Inbox" })).toBeTruthy();
    expect(screen.getByText("1 waiting")).toBeTruthy();
    // It came to an empty Inbox and is on screen: no banner announces it again.
    expect(screen.queryByRole("status", { name: "New question" })).toBeNull();
    await waitFor(() => expect((screen.getByRole("button", { name: "Accept" }) as HTMLButtonElement).disabled).toBe(false));
    await fireEvent.click(screen.getByRole("button", { name: "Accept" }));
    await waitFor(() => expect(api["inbox:answer"]).toHaveBeenCalled());
    api.emit("inbox:event", { type: "answered", id: e.request.id, answer: { id: e.request.id, ok: true, data: {} } });
    await waitFor(() => expect(screen.queryByRole("form", { name: "Question" })).toBeNull());
    expect(screen.queryByText(/answered elsewhere/)).toBeNull();
    // What was sent is confirmed in place of the question; dismissing it leaves the empty Inbox.
    expect(screen.getByRole("status", { name: "Answer sent" }).textContent).toContain("Accepted");
    await fireEvent.click(screen.getByRole("button", { name: "Dismiss" }));
    expect(screen.getByText(/No questions waiting/)).toBeTruthy();
  });

  it("says so when the shown question is answered elsewhere", async () => {
    const e = formEntry(everythingSchema);
    const api = start(fakeApi({ "inbox:list": async () => ok([e]) }));
    await screen.findByRole("form", { name: "Question" });
    api.emit("inbox:event", { type: "answered", id: e.request.id, answer: { id: e.request.id, ok: false, reason: "declined" } });
    expect(await screen.findByText("This question was answered elsewhere")).toBeTruthy();
    expect(screen.queryByRole("form", { name: "Question" })).toBeNull();
    await fireEvent.click(screen.getByRole("button", { name: "Close" }));
    expect(screen.getByText(/No questions waiting/)).toBeTruthy();
  });

  it("says so when the server withdraws the shown question", async () => {
    const e = entry({ kind: "authorization", url: "https://example.com" });
    const api = start(fakeApi({ "inbox:list": async () => ok([e]) }));
    await screen.findByRole("region", { name: "Authorization request" });
    api.emit("inbox:event", { type: "withdrawn", id: e.request.id, reason: "aborted" });
    expect(await screen.findByText("The server withdrew this question")).toBeTruthy();
    expect(screen.queryByRole("region", { name: "Authorization request" })).toBeNull();
  });

  it("says why a question went away: the server's reason, or its expiry", async () => {
    const a = entry({ kind: "authorization", url: "https://example.com" });
    const api = start(fakeApi({ "inbox:list": async () => ok([a]) }));
    await screen.findByRole("region", { name: "Authorization request" });
    api.emit("inbox:event", { type: "withdrawn", id: a.request.id, reason: "aborted", message: "the server stopped waiting after 10 minutes" });
    expect(await screen.findByText("Why: the server stopped waiting after 10 minutes")).toBeTruthy();
    await fireEvent.click(screen.getByRole("button", { name: "Close" }));
    const f = formEntry({ type: "object", properties: {} }, "Soon gone");
    api.emit("inbox:event", { type: "added", entry: f });
    await screen.findByRole("form", { name: "Question" });
    api.emit("inbox:event", { type: "withdrawn", id: f.request.id, reason: "expired", message: "the question expired" });
    expect(await screen.findByText("This question expired")).toBeTruthy();
  });

  it("lists questions a flooding server had cancelled at once", async () => {
    const api = start();
    await waitFor(() => expect(api["inbox:list"]).toHaveBeenCalled());
    const refused = formEntry({ type: "object", properties: {} }, "One too many");
    api.emit("inbox:event", { type: "refused", request: refused.request, source: { server: "github" }, reason: "github already has 8 questions waiting (limit 8)" });
    const list = await screen.findByRole("list", { name: "Questions turned away" });
    expect(list.textContent).toContain("A question from github was cancelled at once: github already has 8 questions waiting (limit 8).");
    // A flood reads as one line with its count.
    for (let i = 0; i < 4; i++) api.emit("inbox:event", { type: "refused", request: refused.request, source: { server: "github" }, reason: "github already has 8 questions waiting (limit 8)" });
    await waitFor(() => expect(within(list).getAllByRole("listitem")).toHaveLength(1));
    expect(list.textContent).toContain("5 questions from github were cancelled at once");
  });

  it("shows a lost race as answered elsewhere", async () => {
    const e = formEntry({ type: "object", properties: {} });
    start(
      fakeApi({
        "inbox:list": async () => ok([e]),
        "inbox:answer": async () => ({ ok: false, error: { code: "unknown-id", message: "no such question" } }),
      }),
    );
    const accept = (await screen.findByRole("button", { name: "Accept" })) as HTMLButtonElement;
    await waitFor(() => expect(accept.disabled).toBe(false));
    await fireEvent.click(accept);
    expect(await screen.findByText("This question was answered elsewhere")).toBeTruthy();
  });

  it("jumps to a question main asks to focus", async () => {
    const a = formEntry({ type: "object", properties: {} }, "A");
    const b = entry({ kind: "authorization", prompt: "B", url: "https://example.com" });
    const api = start(fakeApi({ "inbox:list": async () => ok([a, b]) }));
    await screen.findByRole("form", { name: "Question" });
    await fireEvent.click(screen.getByRole("button", { name: "Servers" }));
    api.emit("inbox:focus", { id: b.request.id });
    const card = await screen.findByRole("region", { name: "Authorization request" });
    // The keyboard lands in the question too (a notification click in Electron).
    await waitFor(() => expect(card.contains(document.activeElement)).toBe(true));
  });

  it("a question arriving while the person types in a tool's arguments waits behind 'Answer now'", async () => {
    const api = start(fakeApi({ "servers:list": async () => ok(servers) }));
    await fireEvent.click(screen.getByRole("button", { name: "Servers" }));
    const echo = await screen.findByRole("form", { name: "Run echo" });
    // The tool's schema is fetched (tools:get) when its arguments are opened.
    await fireEvent.click(within(echo).getByText("Arguments"));
    const message = await within(echo).findByRole("textbox", { name: "message" });
    message.focus();
    await fireEvent.input(message, { target: { value: "half" } });
    api.emit("inbox:event", { type: "added", entry: formEntry({ type: "object", properties: {} }, "Arrived while typing") });
    const banner = await screen.findByRole("status", { name: "New question" });
    expect(banner.textContent).toContain("Arrived while typing");
    expect(screen.getByRole("button", { name: "Servers" }).getAttribute("aria-current")).toBe("page");
    expect(document.activeElement).toBe(message);
    await fireEvent.click(within(banner).getByRole("button", { name: "Answer now" }));
    expect(await screen.findByRole("form", { name: "Question" })).toBeTruthy();
    expect(screen.queryByRole("status", { name: "New question" })).toBeNull();
  });

  it("a question a rule answers at once is neither listed nor opened", async () => {
    const api = start(fakeApi({ "servers:list": async () => ok(servers) }));
    await fireEvent.click(screen.getByRole("button", { name: "Servers" }));
    await screen.findByRole("form", { name: "Run echo" });
    const e = formEntry({ type: "object", properties: {} }, "Answered by a rule");
    api.emit("inbox:event", { type: "added", entry: e, byRule: "rule-1" });
    api.emit("inbox:event", { type: "answered", id: e.request.id, answer: { id: e.request.id, ok: true, data: {} } });
    expect(screen.getByRole("button", { name: "Servers" }).getAttribute("aria-current")).toBe("page");
    expect(screen.queryByRole("status", { name: "New question" })).toBeNull();
    expect(screen.queryByText(/waiting/)).toBeNull();
  });

  it("a question arriving while the person is not typing opens at once", async () => {
    const api = start(fakeApi({ "servers:list": async () => ok(servers) }));
    await fireEvent.click(screen.getByRole("button", { name: "Servers" }));
    await screen.findByRole("form", { name: "Run echo" });
    api.emit("inbox:event", { type: "added", entry: formEntry({ type: "object", properties: { a: { type: "string", title: "First field" } } }, "Comes to you") });
    const form = await screen.findByRole("form", { name: "Question" });
    expect(screen.getByRole("button", { name: "Inbox" }).getAttribute("aria-current")).toBe("page");
    await waitFor(() => expect(document.activeElement).toBe(within(form).getByRole("textbox", { name: "First field" })));
    expect(screen.queryByRole("status", { name: "New question" })).toBeNull();
  });
});

describe("App: servers", () => {
  it("shows each server with status, tool count, error and tools", async () => {
    start(fakeApi({ "servers:list": async () => ok(servers) }));
    await fireEvent.click(screen.getByRole("button", { name: "Servers" }));
    const everything = (await screen.findByRole("heading", { name: "everything", level: 2 })).closest("article")!;
    expect(everything.textContent).toContain("connected");
    expect(everything.textContent).toContain("2 tools");
    expect(within(everything).getByRole("heading", { name: "trigger-elicitation-request" })).toBeTruthy();
    const broken = screen.getByRole("heading", { name: "broken", level: 2 }).closest("article")!;
    expect(broken.textContent).toContain("failed");
    expect(broken.textContent).toContain("spawn nope ENOENT");
  });

  it("runs a tool without blocking: its question can be answered while the run is pending", async () => {
    let finish!: (r: ToolRunResult) => void;
    const api = fakeApi({
      "servers:list": async () => ok(servers),
      "tools:run": () => new Promise((resolve) => (finish = (r) => resolve(ok(r)))),
    });
    start(api);
    await fireEvent.click(screen.getByRole("button", { name: "Servers" }));
    const tool = (await screen.findByRole("heading", { name: "trigger-elicitation-request" })).closest("article")!;
    await fireEvent.click(within(tool).getByRole("button", { name: "Run" }));
    // Main checks the (empty) arguments first, then the run starts.
    await waitFor(() => expect(api["tools:run"]).toHaveBeenCalledWith({ tool: "everything_trigger-elicitation-request", args: {} }));
    expect(api["tools:check"]).toHaveBeenCalledWith({ tool: "everything_trigger-elicitation-request", args: {} });
    expect((within(tool).getByRole("button", { name: "Run" }) as HTMLButtonElement).disabled).toBe(true);

    const question = formEntry({ type: "object", properties: { name: { type: "string", title: "Name" } } });
    api.emit("inbox:event", { type: "added", entry: question });
    await fireEvent.click(screen.getByRole("button", { name: "Inbox" }));
    await fireEvent.input(await screen.findByRole("textbox", { name: "Name" }), { target: { value: "Ada" } });
    await waitFor(() => expect((screen.getByRole("button", { name: "Accept" }) as HTMLButtonElement).disabled).toBe(false));
    expect(api["forms:check"]).toHaveBeenLastCalledWith({ id: question.request.id, data: { name: "Ada" } });
    await fireEvent.click(screen.getByRole("button", { name: "Accept" }));
    await waitFor(() => expect(api["inbox:answer"]).toHaveBeenCalledWith({ id: question.request.id, ok: true, data: { name: "Ada" } }));

    finish({ output: "User inputs:\n- Name: Ada", isError: false });
    await fireEvent.click(screen.getByRole("button", { name: "Servers" }));
    const result = await screen.findByRole("region", { name: "Result of trigger-elicitation-request" });
    expect(result.textContent).toContain("- Name: Ada");
  });

  it("runs a tool with arguments from a form, validating first", async () => {
    const api = start(fakeApi({ "servers:list": async () => ok(servers) }));
    await fireEvent.click(screen.getByRole("button", { name: "Servers" }));
    const tool = (await screen.findByRole("heading", { name: "echo" })).closest("article")!;
    await fireEvent.click(within(tool).getByRole("button", { name: "Run" }));
    expect(await within(tool).findByText("Required")).toBeTruthy();
    expect(api["tools:run"]).not.toHaveBeenCalled();
    // Once a run was refused, the messages follow the fixes.
    await fireEvent.input(within(tool).getByRole("textbox", { name: "message" }), { target: { value: "hi" } });
    await waitFor(() => expect(within(tool).queryByText("Required")).toBeNull());
    await fireEvent.click(within(tool).getByRole("button", { name: "Run" }));
    await waitFor(() => expect(api["tools:run"]).toHaveBeenCalledWith({ tool: "everything_echo", args: { message: "hi" } }));
    expect((await within(tool).findByRole("region", { name: "Result of echo" })).textContent).toContain("done");
  });

  it("offers a JSON editor for a nested input schema", async () => {
    const nested: FakeServerView = {
      name: "deep",
      state: "connected",
      toolCount: 1,
      tools: [
        {
          name: "deep_put",
          server: "deep",
          tool: "put",
          description: "",
          inputSchema: { type: "object", properties: { item: { type: "object", properties: { id: { type: "string" } } } } },
        },
      ],
    };
    const api = start(fakeApi({ "servers:list": async () => ok([nested]) }));
    await fireEvent.click(screen.getByRole("button", { name: "Servers" }));
    await fireEvent.click(await screen.findByText("Arguments"));
    const editor = await screen.findByRole("textbox", { name: "Arguments (JSON)" });
    await fireEvent.input(editor, { target: { value: "[1]" } });
    await fireEvent.click(screen.getByRole("button", { name: "Run" }));
    expect(await screen.findByText("Arguments must be a JSON object.")).toBeTruthy();
    await fireEvent.input(editor, { target: { value: '{"item":{"id":"x"}}' } });
    await fireEvent.click(screen.getByRole("button", { name: "Run" }));
    expect(api["tools:run"]).toHaveBeenCalledWith({ tool: "deep_put", args: { item: { id: "x" } } });
  });
});

describe("App: settings", () => {
  it("pauses notifications, toggles start at login, rotates the token once, manages secrets", async () => {
    const api = start();
    await fireEvent.click(screen.getByRole("button", { name: "Settings" }));
    await fireEvent.click(await screen.findByRole("button", { name: "Pause for 1 hour" }));
    expect(api["settings:pauseNotifications"]).toHaveBeenCalledWith({ minutes: 60 });
    expect(await screen.findByRole("button", { name: "Resume notifications" })).toBeTruthy();

    await fireEvent.click(screen.getByRole("checkbox", { name: "Start at login" }));
    expect(api["settings:startAtLogin"]).toHaveBeenCalledWith({ enabled: true });

    expect(screen.getByText("Token: set")).toBeTruthy();
    await fireEvent.click(screen.getByRole("button", { name: "Rotate token" }));
    expect(((await screen.findByLabelText(/New token/)) as HTMLInputElement).value).toBe("tok-new");
    await fireEvent.click(screen.getByRole("button", { name: "Hide token" }));
    expect(screen.queryByLabelText(/New token/)).toBeNull();

    expect(screen.getByText("GITHUB_TOKEN")).toBeTruthy();
    const value = screen.getByLabelText("Secret value") as HTMLInputElement;
    expect(value.type).toBe("password");
    await fireEvent.input(screen.getByLabelText("Secret name"), { target: { value: "OPENAI_KEY" } });
    await fireEvent.input(value, { target: { value: "sk-123" } });
    await fireEvent.click(screen.getByRole("button", { name: "Save secret" }));
    expect(api["secrets:set"]).toHaveBeenCalledWith({ name: "OPENAI_KEY", value: "sk-123" });
    await waitFor(() => expect(value.value).toBe(""));
    await fireEvent.click(screen.getByRole("button", { name: "Delete GITHUB_TOKEN" }));
    expect(api["secrets:delete"]).toHaveBeenCalledWith({ name: "GITHUB_TOKEN" });
    expect(settings.secretNames).toEqual(["GITHUB_TOKEN"]);
  });
});

describe("App: settings, where the token is kept", () => {
  // Each sentence reads whole whichever branch shows: "… once set. Rotate it …", never "set.Rotate".
  it.each([
    [{ kind: "session", why: "no keychain" } as const, "The token is never shown here again once set. Rotate it to see a new one once"],
    [{ kind: "keychain" } as const, "The token is never shown here again once set. Print it with toolnexus-companion token in a terminal, or rotate it to see a new one once"],
  ])("%o", async (tokenKept, sentence) => {
    start(fakeApi({ "settings:get": async () => ok({ ...settings, gateway: { ...settings.gateway, tokenKept } }) }));
    await fireEvent.click(screen.getByRole("button", { name: "Settings" }));
    const paragraph = await screen.findByText(/never shown here again/);
    expect(paragraph.textContent!.replace(/\s+/g, " ").trim()).toContain(sentence);
  });
});

describe("App: browser notifications", () => {
  it("notifies once per new question in browser mode when permitted and the page is not in view", async () => {
    const shown: { title: string; body?: string }[] = [];
    class FakeNotification {
      static permission = "granted";
      onclick: (() => void) | null = null;
      constructor(title: string, options?: NotificationOptions) {
        shown.push({ title, body: options?.body });
      }
      close() {}
    }
    vi.stubGlobal("Notification", FakeNotification);
    const hasFocus = vi.spyOn(document, "hasFocus").mockReturnValue(false);
    const api = fakeApi();
    render(App, { props: { connection: { api, mode: "browser" } } });
    await waitFor(() => expect(api["settings:get"]).toHaveBeenCalled());
    const e = formEntry({ type: "object", properties: {} }, "Pick a colour");
    api.emit("inbox:event", { type: "added", entry: e });
    api.emit("inbox:event", { type: "added", entry: e });
    expect(shown).toEqual([{ title: "Question from everything for claude-code", body: "Pick a colour" }]);
    hasFocus.mockRestore();
    vi.unstubAllGlobals();
  });
});

describe("App: history", () => {
  it("the History tab shows the History view, which asks main for the records", async () => {
    const api = start();
    await fireEvent.click(screen.getByRole("button", { name: "History" }));
    expect(screen.getByRole("button", { name: "History" }).getAttribute("aria-current")).toBe("page");
    await waitFor(() => expect(api["history:list"]).toHaveBeenCalled());
    expect(await screen.findByRole("search", { name: "Search history" })).toBeTruthy();
  });
});
