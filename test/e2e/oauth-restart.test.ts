// Issue 9 end to end across a restart: the real companion (core + listener, browser mode) started
// from a config file naming an OAuth-protected remote server (fixture oauth-server.mjs), the page
// in Debian's Chromium. The person answers the sign-in question with "Open in browser"; the app is
// quit and started again on the same keychain after the access token expired: the server connects
// with no question (the refresh token from the keychain) and its tool with a question works; the
// Servers view's Sign out then leaves no stored item of the server behind.
// The keychain is the real one (gnome-keyring, under npm test) with a service of this test's own;
// without a D-Bus session the same SecretStore contract runs on the in-memory store.
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import keytar from "keytar";
import type { BrowserContext, Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { createKeytarStore, createMemoryStore } from "../../src/main/secrets";
import type { SecretStore } from "../../src/main/secrets/types";
import { startOAuthServer } from "../integration/oauth-harness";
import { useBrowser, type App } from "./harness";
import { startFromFile } from "./config-app";
import { outputOf } from "../helpers/tool-output";

const UI_TIMEOUT = 30_000;
const hasBus = Boolean(process.env.DBUS_SESSION_BUS_ADDRESS);
if (!hasBus && process.env.TNC_REQUIRE_KEYCHAIN) {
  throw new Error("oauth-restart.test.ts: no D-Bus session (DBUS_SESSION_BUS_ADDRESS unset) although npm test requires the keychain.");
}
const SERVICE = `toolnexus-companion-test-restart-${process.pid}`;

const e2e = useBrowser({
  uiTimeout: UI_TIMEOUT,
  closeContexts: "after-all",
  afterAll: async () => {
    if (hasBus) for (const { account } of await keytar.findCredentials(SERVICE)) await keytar.deletePassword(SERVICE, account);
  },
});

const start = (configPath: string, secrets: SecretStore): Promise<App> => startFromFile(configPath, { secrets });

function openPage(context: BrowserContext, app: App): Promise<Page> {
  return e2e.open({ context, url: app.pageUrl });
}

const secureState = (app: App) => app.core.servers().find((s) => s.name === "secure")?.state;
const oauthItems = async (store: SecretStore) => (await store.list()).filter((name) => name.startsWith("oauth."));

describe("OAuth sign-in across a restart, in Chromium (issue 9)", () => {
  it("signs in once; after a restart connects with the refresh token and asks nothing; Sign out removes every stored item", async () => {
    // Access tokens live 3 s, so the restart finds an expired one and must refresh.
    const oauth = await startOAuthServer(["--expires-in", "3"]);
    const configPath = join(mkdtempSync(join(tmpdir(), "tnc-oauth-restart-")), "mcp.json");
    writeFileSync(configPath, JSON.stringify({ mcpServers: { secure: { url: oauth.url } } }));
    const memory = createMemoryStore("test");
    // A new store object per run, as a restarted app opens the keychain anew.
    const store = () => (hasBus ? createKeytarStore(keytar, SERVICE) : memory);

    // First run: the sign-in question, answered in the page; the browser completes the flow.
    const first = await start(configPath, store());
    let context = await e2e.context();
    try {
      const page = await openPage(context, first);
      const ask = page.getByRole("region", { name: "Authorization request" });
      await ask.waitFor();
      await expect(ask.innerText()).resolves.toContain(new URL(oauth.origin).host);
      const popup = context.waitForEvent("page");
      await ask.getByRole("button", { name: "Open in browser" }).click();
      await (await popup).waitForLoadState();
      await expect.poll(() => secureState(first), { timeout: UI_TIMEOUT }).toBe("connected");
    } finally {
      await context.close();
      await first.close();
    }
    const signedIn = await oauthItems(store());
    expect(signedIn).toEqual(expect.arrayContaining([expect.stringMatching(/\.tokens\./), expect.stringMatching(/\.client\./)]));
    const before = await oauth.stats();
    expect(before).toMatchObject({ authorize: 1, codeGrants: 1, registrations: 1 });
    await new Promise((r) => setTimeout(r, 3_100));

    // Restart on the same keychain: connected without a question, the tool's own question works.
    const second = await start(configPath, store());
    context = await e2e.context();
    try {
      await expect.poll(() => secureState(second), { timeout: UI_TIMEOUT }).toBe("connected");
      expect(second.core.internals.inbox.list()).toEqual([]);
      const after = await oauth.stats();
      expect(after).toMatchObject({ authorize: 1, codeGrants: 1, registrations: 1 });
      expect(after.refreshGrants).toBeGreaterThan(before.refreshGrants);

      const tool = second.core.internals.source.tools.find((t) => t.name === "secure_ask_region")!;
      const stop = second.core.internals.inbox.on((event) => {
        if (event.type === "added" && event.entry.request.kind !== "authorization") second.core.internals.inbox.answer(event.entry.request.id, { ok: true, data: { region: "emea" } });
      });
      try {
        expect((await outputOf(tool.execute({}))).output).toBe("region: emea");
      } finally {
        stop();
      }
      expect(second.core.internals.inbox.list().filter((e) => e.request.kind === "authorization")).toEqual([]);

      // Sign out from the Servers view.
      const page = await openPage(context, second);
      await page.getByRole("navigation", { name: "Main" }).getByRole("button", { name: "Servers", exact: true }).click();
      const secure = page.getByRole("article").filter({ has: page.getByRole("heading", { name: "secure", level: 2, exact: true }) });
      await secure.getByText("connected", { exact: true }).waitFor();
      await secure.getByRole("button", { name: "Sign out" }).click();
      await secure.getByText("Needs sign-in", { exact: true }).waitFor();
      expect(await oauthItems(store())).toEqual([]);
      if (hasBus) expect((await keytar.findCredentials(SERVICE)).map((c) => c.account).filter((a) => a.startsWith("oauth."))).toEqual([]);
    } finally {
      await context.close();
      await second.close();
    }
  }, 150_000);
});
