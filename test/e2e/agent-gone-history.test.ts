// Issue 10 in Chromium, browser mode, the real core and listener: an agent that disconnects while
// its question is open (the page says the agent disconnected, History keeps it), and history that
// lasts across a restart of the companion (a second core on the same SQLite file lists the first
// one's answer). Screenshots of the views at 1280×800 and 420×640 land in test-output/screenshots.
import { describe, it, expect } from "vitest";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Page } from "playwright-core";
import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import type { Answer, Request } from "../../src/shared/types";
import { DESKTOP, repoRoot, shootAll as shootViews, startApp as startBrowserApp, useBrowser, type App, type Size } from "./harness";

const UI_TIMEOUT = 15_000;
const RECORD_FIXTURE = join(repoRoot, "test", "fixtures", "elicit-record.mjs");

/** The browser-mode app as serve.ts builds it, with its history in `historyPath`. */
function startApp(config: unknown, historyPath: string): Promise<App> {
  return startBrowserApp(config, { core: { historyPath } });
}

let dir: string;
const apps: App[] = [];

const e2e = useBrowser({
  uiTimeout: UI_TIMEOUT,
  afterEach: async () => {
    while (apps.length) await apps.pop()!.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
  },
});

function openPage(app: App, viewport: Size = DESKTOP): Promise<Page> {
  return e2e.open({ viewport, url: app.pageUrl });
}

const nav = (page: Page, name: string) => page.getByRole("navigation", { name: "Main" }).getByRole("button", { name, exact: true });

/** The view on screen at 1280×800 and 420×640, light and dark: a screenshot each (issue10-<name>), no sideways scroll, zero axe violations. */
const shootAll = (page: Page, name: string) => shootViews(page, `issue10-${name}`);

describe("an agent that disconnects, in the page", () => {
  it("the open question says the agent disconnected, and History keeps it as withdrawn with that reason", async () => {
    dir = mkdtempSync(join(tmpdir(), "tnc-agent-gone-"));
    const app = await startApp({ mcpServers: { rec: { command: process.execPath, args: [RECORD_FIXTURE, join(dir, "record.jsonl")] } } }, join(dir, "history.sqlite"));
    apps.push(app);
    await app.core.ready;
    const page = await openPage(app);

    const agent = new Client({ name: "quitter", version: "1.0.0" }, { capabilities: {} });
    await agent.connect(new StreamableHTTPClientTransport(new URL(`${app.server.url}/mcp`), { requestInit: { headers: { authorization: `Bearer ${app.core.token()}` } } }));
    const call = agent.callTool({ name: "rec_ask", arguments: { label: "e2e" } }).catch((e: Error) => e);
    const form = page.getByRole("form", { name: "Question" });
    await form.getByText("Note for e2e?").waitFor();

    await agent.close();
    const closed = page.getByRole("status", { name: "Question closed" });
    await closed.getByText("quitter disconnected, so this question was withdrawn").waitFor();
    expect(await closed.getByText("The server withdrew this question").count()).toBe(0);
    await call;
    await shootAll(page, "agent-disconnected");

    await nav(page, "History").click();
    const item = page.getByRole("list", { name: "History records" }).getByRole("article", { name: "Note for e2e?" });
    await item.getByText("Withdrawn", { exact: true }).waitFor();
    await item.getByText("Details").click();
    await item.getByText("Why: quitter disconnected").waitFor();
  }, 60_000);
});

describe("a question the agent answers itself, in the page", () => {
  it("is listed as the agent answering, the pane says the person may answer for it, and it goes once the agent answers", async () => {
    dir = mkdtempSync(join(tmpdir(), "tnc-agent-answering-"));
    const config = {
      mcpServers: { test: { command: process.execPath, args: [join(repoRoot, "test", "fixtures", "conformance-server.mjs"), "test"] } },
      gateway: { elicitation: { default: "person", agents: { "release-bot": "agent" } } },
    };
    const app = await startApp(config, join(dir, "history.sqlite"));
    apps.push(app);
    await app.core.ready;
    const page = await openPage(app);

    let release: (answer: Record<string, unknown>) => void = () => {};
    const agent = new Client({ name: "release-bot", version: "1.0.0" }, { capabilities: { elicitation: { form: {} } } });
    agent.setRequestHandler("elicitation/create", () => new Promise((resolve) => (release = resolve)) as never);
    await agent.connect(new StreamableHTTPClientTransport(new URL(`${app.server.url}/mcp`), { requestInit: { headers: { authorization: `Bearer ${app.core.token()}` } } }));
    try {
      const call = agent.callTool({ name: "test_elicitation", arguments: { message: "Which branch should the release use?" } });
      const list = page.getByRole("list", { name: "Pending questions" });
      const item = list.getByRole("button", { name: /Which branch should the release use\?/ });
      await item.getByText("release-bot is answering").waitFor();
      await item.click();
      await page.getByRole("note").getByText("release-bot is answering this itself. Answer here only to answer for it.").waitFor();
      await shootAll(page, "agent-answering");

      release({ action: "accept", content: { username: "ada", email: "ada@example.com" } });
      const result = (await call) as { content: { type: string; text: string }[] };
      expect(result.content[0].text).toContain("action=accept");
      await expect.poll(() => list.getByRole("button", { name: /Which branch should the release use\?/ }).count(), { timeout: UI_TIMEOUT }).toBe(0);
    } finally {
      await agent.close();
    }
  }, 60_000);
});

describe("history across a restart of the companion", () => {
  it("a question answered in the page is listed with its outcome by the next app on the same file", async () => {
    dir = mkdtempSync(join(tmpdir(), "tnc-history-restart-"));
    const historyPath = join(dir, "history.sqlite");
    const prompt = "Which branch should the nightly build use?";
    const first = await startApp({ mcpServers: {} }, historyPath);
    apps.push(first);
    const page = await openPage(first);
    const request: Request = {
      id: "restart-q1",
      kind: "input",
      prompt,
      data: { schema: { type: "object", properties: { branch: { type: "string", title: "Branch" } }, required: ["branch"] } },
    };
    const answered: Promise<Answer> = first.core.internals.inbox.waitFor(request, { source: { server: "nightly", agent: "cursor" } });
    const form = page.getByRole("form", { name: "Question" });
    await form.getByText(prompt).waitFor();
    await form.getByRole("textbox", { name: /Branch/ }).fill("release-2.4");
    await expect.poll(() => form.getByRole("button", { name: "Accept" }).isEnabled()).toBe(true);
    await form.getByRole("button", { name: "Accept" }).click();
    expect(await answered).toMatchObject({ ok: true, data: { branch: "release-2.4" } });

    // The companion stops (its page with it) and a new one starts on the same history file.
    await page.context().close();
    apps.pop();
    await first.close();
    const second = await startApp({ mcpServers: {} }, historyPath);
    apps.push(second);

    const again = await openPage(second);
    await nav(again, "History").click();
    const item = again.getByRole("list", { name: "History records" }).getByRole("article", { name: prompt });
    await item.getByText("Accepted", { exact: true }).waitFor();
    await item.getByText("nightly for cursor").waitFor();
    await item.getByText("Details").click();
    await item.getByText("release-2.4").waitFor();
    await shootAll(again, "history-after-restart");
  }, 90_000);
});
