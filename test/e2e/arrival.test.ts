// Issue 10 in the browser, end to end: the real core and listener in browser mode with
// server-everything over stdio, and Debian's Chromium. A question comes to the person (arrival on
// the Servers view, focus, the banner while typing), the calmer form (plain messages, Escape with
// typed input, untouched optional fields omitted, masked credentials, the sticky action bar), the
// honest Inbox (kind, tool, agents, expiry, Cancel all), and sizes and states (420 px without
// horizontal overflow, a refused session). axe-core runs on every view; screenshots of each view
// at 1280×800 and 420×640, light and dark, land in test-output/screenshots.
import { describe, it, expect } from "vitest";
import { join } from "node:path";
import type { Page } from "playwright-core";
import type { Request } from "../../src/shared/types";
import { axeViolations, cancelPending, CANCEL_FIXTURE, DESKTOP, everythingConfig, POPUP, SHOTS, shootAll as shootViews, startApp, useBrowser, type App, type Size } from "./harness";

const UI_TIMEOUT = 15_000;
const ELICIT = "trigger-elicitation-request";
const FORM_PROMPT = /Please provide inputs/;

const e2e = useBrowser({ uiTimeout: UI_TIMEOUT, app: () => startApp(everythingConfig()), afterEach: () => cancelPending(e2e.app) });

function openPage(viewport: Size = DESKTOP, colorScheme: "light" | "dark" = "light"): Promise<Page> {
  return e2e.open({ viewport, colorScheme });
}

const nav = (page: Page, name: string) => page.getByRole("navigation", { name: "Main" }).getByRole("button", { name, exact: true });

async function runTool(page: Page, tool: string): Promise<void> {
  await nav(page, "Servers").click();
  await page.getByRole("form", { name: `Run ${tool}`, exact: true }).getByRole("button", { name: "Run" }).click();
}

function rawResult(text: string): Record<string, unknown> {
  const at = text.indexOf("Raw result:");
  return JSON.parse(text.slice(at + "Raw result:".length).trim());
}

/** The result of `tool` as the confirmation beside the sent answer shows it. */
async function sentResult(page: Page, tool: string): Promise<string> {
  const region = page.getByRole("status", { name: "Answer sent" }).getByRole("region", { name: `Result of ${tool}` });
  await expect.poll(async () => ((await region.count()) ? region.innerText() : ""), { timeout: UI_TIMEOUT }).toMatch(/Raw result/);
  return region.innerText();
}

/** Posts a question straight into the Inbox, as an agent's /v1/requests would. */
function ask(request: Partial<Request> & { id: string }, source: { server?: string; agent?: string; tool?: string } = { server: "deploy" }) {
  return e2e.app.core.internals.inbox.waitFor({ kind: "input", prompt: "", ...request } as Request, { source });
}

/** The view on screen at 1280×800 and 420×640, light and dark: a screenshot each (issue10-<name>), no horizontal overflow, zero axe violations. */
const shootAll = (page: Page, name: string) => shootViews(page, `issue10-${name}`);

async function overflow(page: Page): Promise<{ scrollWidth: number; innerWidth: number }> {
  return page.evaluate(() => ({ scrollWidth: document.scrollingElement!.scrollWidth, innerWidth: window.innerWidth }));
}

describe("arrival", () => {
  it("a question asked by a run on the Servers view opens in the Inbox, takes the focus, and after Accept the run's result stands beside 'Accepted'", async () => {
    const page = await openPage();
    await runTool(page, ELICIT);
    // The page comes to the question: the Inbox, the form, and the keyboard in its first field.
    const form = page.getByRole("form", { name: "Question" });
    await form.waitFor();
    expect(await nav(page, "Inbox").getAttribute("aria-current")).toBe("page");
    await expect
      .poll(() => page.evaluate(() => (document.activeElement as HTMLInputElement | null)?.labels?.[0]?.textContent ?? document.activeElement?.tagName))
      .toBe("String");
    await page.keyboard.type("Ada");
    await expect.poll(() => form.getByRole("button", { name: "Accept" }).isEnabled()).toBe(true);
    await form.getByRole("button", { name: "Accept" }).click();
    const sent = page.getByRole("status", { name: "Answer sent" });
    await sent.waitFor();
    expect(await sent.innerText()).toContain("Accepted");
    const text = await sentResult(page, ELICIT);
    expect(text).toContain("- Name: Ada");
    await shootAll(page, "sent");
  });

  it("while the person types in another form, a new question waits behind an 'Answer now' banner", async () => {
    const page = await openPage();
    await nav(page, "Servers").click();
    const urlForm = page.getByRole("form", { name: "Run trigger-url-elicitation" });
    await urlForm.getByText("Arguments", { exact: true }).click();
    const url = urlForm.getByRole("textbox", { name: "url" });
    await url.fill("https://half.example/typed");
    void ask({ id: "typing-1", prompt: "Deploy to production?", data: { schema: { type: "object", properties: { ok: { type: "boolean", title: "Go" } } } } }).catch(() => {});
    const banner = page.getByRole("status", { name: "New question" });
    await banner.waitFor();
    expect(await banner.innerText()).toContain("Deploy to production?");
    // Nothing was taken from the person: same view, same field, same text.
    expect(await nav(page, "Servers").getAttribute("aria-current")).toBe("page");
    expect(await url.evaluate((el) => el === document.activeElement)).toBe(true);
    expect(await url.inputValue()).toBe("https://half.example/typed");
    // The header and its count stay in view on a scrolled page.
    await page.mouse.wheel(0, 3000);
    await page.waitForTimeout(200);
    const badge = await page.getByText("1 waiting").boundingBox();
    expect(badge && badge.y >= 0 && badge.y < 80).toBe(true);
    // So does the banner: it sits in the header.
    const offered = await banner.getByRole("button", { name: "Answer now" }).boundingBox();
    expect(offered && offered.y >= 0 && offered.y + offered.height < 200).toBe(true);
    expect(await page.evaluate(() => window.scrollY)).toBeGreaterThan(0);
    await shootAll(page, "arrival-banner");
    await banner.getByRole("button", { name: "Answer now" }).click();
    await page.getByRole("form", { name: "Question" }).waitFor();
    await expect.poll(() => page.evaluate(() => document.activeElement?.closest("form")?.getAttribute("aria-label"))).toBe("Question");
  });
});

describe("a calmer form", () => {
  it("says what is wrong in plain words from the schema, once", async () => {
    const page = await openPage();
    await runTool(page, ELICIT);
    const form = page.getByRole("form", { name: "Question" });
    await form.getByRole("textbox", { name: "String", exact: true }).fill("Ada");
    const integer = form.getByRole("spinbutton", { name: "Integer" });
    await integer.fill("500");
    await integer.blur();
    await form.getByText("A whole number from 1 to 100", { exact: true }).waitFor();
    expect(await form.getByText("must be <= 100").count()).toBe(0);
    // The hint above the field said the same rule; now only the message says it.
    expect(await form.getByText("From 1 to 100.", { exact: true }).count()).toBe(0);
    const instruments = form.getByRole("group", { name: "Untitled Multiple Select Enum", exact: true });
    for (const name of ["Piano", "Violin", "Drums"]) await instruments.getByRole("checkbox", { name }).check();
    await form.getByText("Choose 1 to 3", { exact: true }).waitFor();
    expect(await form.getByText(/must NOT have/).count()).toBe(0);
    const email = form.getByRole("textbox", { name: "String with email format" });
    await email.fill("nope");
    await email.blur();
    await form.getByText("An email address, like name@example.com").waitFor();
    // The action bar stays in view while the form scrolls.
    const bar = await form.getByRole("button", { name: "Decline" }).boundingBox();
    expect(bar && bar.y + bar.height <= DESKTOP.height).toBe(true);
    expect(await axeViolations(page)).toEqual([]);
    await shootAll(page, "form-messages");
  });

  it("leaves out optional fields the person never touched: an untouched optional checkbox is not sent as false", async () => {
    const page = await openPage();
    await runTool(page, ELICIT);
    const form = page.getByRole("form", { name: "Question" });
    await form.getByRole("textbox", { name: "String", exact: true }).fill("Ada");
    await expect.poll(() => form.getByRole("button", { name: "Accept" }).isEnabled()).toBe(true);
    await form.getByRole("button", { name: "Accept" }).click();
    const content = rawResult(await sentResult(page, ELICIT)).content as Record<string, unknown>;
    expect(content.name).toBe("Ada");
    expect(content).not.toHaveProperty("check");
    // Defaults the form showed still go out (the schema's own `default`s).
    expect(content.firstLine).toBe("It was a dark and stormy night.");
  });

  it("Escape with typed input asks before discarding; Keep editing keeps it, Discard cancels", async () => {
    const page = await openPage();
    await runTool(page, ELICIT);
    const form = page.getByRole("form", { name: "Question" });
    const name = form.getByRole("textbox", { name: "String", exact: true });
    await name.fill("Half typed");
    await name.press("Escape");
    const ask = page.getByRole("alertdialog", { name: "Discard your answer?" });
    await ask.waitFor();
    expect(e2e.app.core.internals.inbox.list()).toHaveLength(1);
    await shootAll(page, "escape");
    await ask.getByRole("button", { name: "Keep editing" }).click();
    expect(await ask.count()).toBe(0);
    expect(await name.inputValue()).toBe("Half typed");
    await name.press("Escape");
    await page.getByRole("alertdialog", { name: "Discard your answer?" }).getByRole("button", { name: "Discard and cancel" }).click();
    expect(rawResult(await sentResult(page, ELICIT))).toEqual({ action: "cancel" });
  });

  it("masks credential-looking fields with a Show toggle", async () => {
    const page = await openPage();
    const schema = {
      type: "object",
      properties: {
        apiKey: { type: "string", title: "API key" },
        pin: { type: "string", title: "PIN" },
        hidden: { type: "string", title: "Passphrase", format: "password" },
        spinner: { type: "string", title: "Spinner colour" },
      },
    };
    void ask({ id: "masked-1", prompt: "Connect the account", data: { schema } }).catch(() => {});
    const form = page.getByRole("form", { name: "Question" });
    await form.waitFor();
    // An empty Inbox takes the question at once: no banner for the question already on screen.
    expect(await page.getByRole("status", { name: "New question" }).count()).toBe(0);
    for (const label of ["API key", "PIN", "Passphrase"]) expect(await form.getByLabel(label, { exact: true }).getAttribute("type")).toBe("password");
    expect(await form.getByLabel("Spinner colour").getAttribute("type")).toBe("text");
    await shootAll(page, "masked");
    await form.getByRole("button", { name: "Show API key" }).click();
    expect(await form.getByLabel("API key", { exact: true }).getAttribute("type")).toBe("text");
    expect(await axeViolations(page)).toEqual([]);
  });
});

describe("the URL card", () => {
  it("with warnings standing: Open demoted, Copy URL, and the Unicode form of a punycode host", async () => {
    const page = await openPage();
    void ask({ id: "url-1", kind: "authorization", prompt: "Sign in to continue", url: "http://xn--80ak6aa92e.com/login?next=%2Fhome" }).catch(() => {});
    const card = page.getByRole("region", { name: "Authorization request" });
    await card.waitFor();
    expect(await card.innerText()).toContain("аррӏе.com");
    expect(await card.getByRole("button", { name: "Open in browser" }).getAttribute("class")).not.toContain("primary");
    await page.context().grantPermissions(["clipboard-read", "clipboard-write"]);
    await card.getByRole("button", { name: "Copy URL" }).click();
    await card.getByText("Copied the URL.").waitFor();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe("http://xn--80ak6aa92e.com/login?next=%2Fhome");
    await shootAll(page, "url-card-warnings");
  });
});

describe("an honest Inbox", () => {
  it("each item shows its kind, server, tool, agents in words, age and time left; Cancel all answers each of that server's questions", async () => {
    const page = await openPage();
    await nav(page, "Settings").click(); // not on the Inbox: arrival brings the person there
    const expiresAt = new Date(Date.now() + 5 * 60_000).toISOString();
    const answers = [
      ask({ id: "deploy-1", prompt: "Which environment?", expiresAt, data: { schema: { type: "object", properties: { env: { type: "string" } } } } }, { server: "deploy", tool: "release", agent: "cursor, claude-code" }),
      ask({ id: "deploy-2", kind: "authorization", prompt: "Sign in to deploy", url: "https://deploy.example/login" }, { server: "deploy" }),
      ask({ id: "other-1", prompt: "Unrelated" }, { server: "notes" }),
    ];
    const list = page.getByRole("list", { name: "Pending questions" });
    await expect.poll(() => list.getByRole("button").count()).toBe(3);
    const first = await list.getByRole("button").nth(0).innerText();
    expect(first).toMatch(/Form/i);
    expect(first).toContain("deploy");
    expect(first).toContain("release");
    expect(first).toContain("for cursor or claude-code");
    expect(first).toMatch(/just now/);
    expect(first).toMatch(/expires in [45] min/);
    expect(await list.getByRole("button").nth(1).innerText()).toMatch(/Link/i);
    for (const [size, scheme] of [[DESKTOP, "light"], [DESKTOP, "dark"], [POPUP, "light"], [POPUP, "dark"]] as const) {
      await page.setViewportSize(size);
      await page.emulateMedia({ colorScheme: scheme });
      await page.screenshot({ path: join(SHOTS, `issue10-inbox-items-${size.width}x${size.height}-${scheme}.png`) });
      expect(await axeViolations(page)).toEqual([]);
    }
    await page.setViewportSize(DESKTOP);
    await page.getByRole("button", { name: "Cancel all from deploy" }).click();
    await page.getByRole("button", { name: "Yes, cancel 2" }).click();
    const settled = await Promise.all(answers.slice(0, 2));
    expect(settled.map((a) => a.reason)).toEqual(["cancelled", "cancelled"]);
    await expect.poll(() => list.getByRole("button").count()).toBe(1);
    expect(await list.innerText()).toContain("Unrelated");
  });
});

describe("sizes and states", () => {
  const views = ["Inbox", "Servers", "Settings"] as const;

  it("every view at 1280×800 and 420×640, light and dark: no horizontal overflow, zero axe violations", async () => {
    for (const size of [DESKTOP, POPUP, { width: 360, height: 640 }]) {
      for (const scheme of ["light", "dark"] as const) {
        const page = await openPage(size, scheme);
        for (const view of views) {
          await nav(page, view).click();
          if (view === "Servers") await page.getByRole("list", { name: "Servers" }).waitFor();
          if (view === "Settings") await page.getByRole("heading", { name: "Gateway for local agents" }).waitFor();
          const { scrollWidth, innerWidth } = await overflow(page);
          expect(scrollWidth, `${view} at ${size.width} px, ${scheme}`).toBeLessThanOrEqual(innerWidth);
          expect(await axeViolations(page), `${view} at ${size.width} px, ${scheme}`).toEqual([]);
          if (size.width !== 360) await page.screenshot({ path: join(SHOTS, `issue10-${view.toLowerCase()}-${size.width}x${size.height}-${scheme}.png`) });
        }
        // A question open at this size too.
        await runTool(page, ELICIT);
        await page.getByRole("form", { name: "Question" }).waitFor();
        const { scrollWidth, innerWidth } = await overflow(page);
        expect(scrollWidth, `question at ${size.width} px, ${scheme}`).toBeLessThanOrEqual(innerWidth);
        expect(await axeViolations(page), `question at ${size.width} px, ${scheme}`).toEqual([]);
        if (size.width !== 360) await page.screenshot({ path: join(SHOTS, `issue10-question-${size.width}x${size.height}-${scheme}.png`) });
        await page.getByRole("form", { name: "Question" }).getByRole("button", { name: "Cancel" }).click();
        await page.getByRole("status", { name: "Answer sent" }).waitFor();
        await page.context().close();
      }
    }
  }, 240_000);

  it("the axe check can fail: an unlabelled field is reported", async () => {
    const page = await openPage();
    await page.evaluate(() => document.querySelector("main")!.append(document.createElement("input")));
    expect((await axeViolations(page)).join("\n")).toMatch(/^label:/m);
  });

  it("names like claude-code never break mid-word at 420 px", async () => {
    const page = await openPage(POPUP);
    void ask({ id: "wrap-1", prompt: "Which branch?" }, { server: "xn--80ak6aa92e-long-server-name", agent: "claude-code" }).catch(() => {});
    const item = page.getByRole("list", { name: "Pending questions" }).getByRole("button").first();
    await item.waitFor();
    // "claude-code" sits on one line: its text box is one line high.
    const lines = await page.evaluate(() => {
      const span = [...document.querySelectorAll(".item-meta span")].find((s) => s.textContent?.includes("claude-code"));
      if (!span) return -1;
      const range = document.createRange();
      range.selectNodeContents(span);
      return new Set([...range.getClientRects()].map((r) => Math.round(r.top))).size;
    });
    expect(lines).toBe(1);
    const { scrollWidth, innerWidth } = await overflow(page);
    expect(scrollWidth).toBeLessThanOrEqual(innerWidth);
  });

  it("Settings in browser mode: no Start at login; without a keychain a secret can be saved for the session, with its warning", async () => {
    const page = await openPage();
    await nav(page, "Settings").click();
    await page.getByRole("heading", { name: "Secrets" }).waitFor();
    expect(await page.getByRole("checkbox", { name: "Start at login" }).count()).toBe(0);
    expect(await page.getByText("toolnexus-companion token").count()).toBeGreaterThan(0);
    // The harness's core has no keychain (createCore's in-memory store), as serve without one.
    expect(await page.getByText(/^Keychain:/).innerText()).toContain("not available");
    expect(await page.getByRole("note").filter({ hasText: "Secrets saved here are kept in memory for this session only" }).isVisible()).toBe(true);
    await page.getByLabel("Secret name").fill("E2E_SESSION_SECRET");
    await page.getByLabel("Secret value").fill("s3cr3t");
    const save = page.getByRole("button", { name: "Save secret" });
    expect(await save.isEnabled()).toBe(true);
    await save.click();
    await page.getByRole("list", { name: "Stored secrets" }).getByText("E2E_SESSION_SECRET").waitFor();
    expect(await axeViolations(page)).toEqual([]);
    await page.getByRole("button", { name: "Delete E2E_SESSION_SECRET" }).click();
    expect(await axeViolations(page)).toEqual([]);
  });

  it("a page whose session is refused (the companion restarted) says so and how to get the new link; server states read 'unknown' meanwhile", async () => {
    const first = await startApp({ mcpServers: { withdraws: { command: process.execPath, args: [CANCEL_FIXTURE] } } });
    let second: App | undefined;
    try {
      const page = await e2e.open({ viewport: DESKTOP, url: first.pageUrl, ready: false });
      await nav(page, "Servers").click();
      await page.getByText("connected", { exact: true }).waitFor({ timeout: 30_000 });
      const port = Number(new URL(first.pageUrl).port);
      await first.close();
      // Down: what main last said about its servers may no longer hold.
      await page.getByText("unknown", { exact: true }).waitFor();
      expect(await page.getByText("connected", { exact: true }).count()).toBe(0);
      expect(await axeViolations(page)).toEqual([]);
      await page.screenshot({ path: join(SHOTS, "issue10-disconnected-1280x800-light.png") });
      // Back on the same port with a new session: this page's cookie no longer opens it.
      second = await startApp({ mcpServers: {} }, { port });
      const alert = page.getByRole("alert").filter({ hasText: "no longer works" });
      await alert.waitFor({ timeout: 30_000 });
      expect(await alert.innerText()).toContain("toolnexus-companion token");
      expect(await axeViolations(page)).toEqual([]);
      for (const [size, scheme] of [[DESKTOP, "light"], [DESKTOP, "dark"], [POPUP, "light"], [POPUP, "dark"]] as const) {
        await page.setViewportSize(size);
        await page.emulateMedia({ colorScheme: scheme });
        await page.screenshot({ path: join(SHOTS, `issue10-session-refused-${size.width}x${size.height}-${scheme}.png`) });
        expect((await overflow(page)).scrollWidth).toBeLessThanOrEqual(size.width);
      }
      // Pasting the new token opens the page again.
      await page.getByLabel("New token", { exact: true }).fill(second.core.token());
      await page.getByRole("button", { name: "Open with this token" }).click();
      await expect.poll(() => page.getByRole("alert").filter({ hasText: "no longer works" }).count(), { timeout: 30_000 }).toBe(0);
      await page.getByRole("navigation", { name: "Main" }).waitFor();
      expect(page.url()).not.toContain("token=");
    } finally {
      await second?.close();
      await first.close().catch(() => {});
    }
  }, 120_000);
});

