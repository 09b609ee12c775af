// "Servers managed where the person is", end to end: the real companion started on a first run (no
// config file yet), Debian's Chromium, the shipped demo and a fixture stdio server. The person
// tries a question (the demo starts), adds a local server through the form (the file is created
// and the server connects), annotates the file by hand, edits the server in the app (one more
// argument: the file changes, the comment stays, the server restarts with it), and stops the demo,
// which offers neither Disable nor Remove. The form, the cards and a refused field are shot at
// 1280×800 and 420×640, light and dark, each axe-clean and without horizontal overflow.
import { describe, it, expect } from "vitest";
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Page } from "playwright-core";
import { DESKTOP, repoRoot, shootAll, useBrowser } from "./harness";
import { startFromFile, useHome } from "./config-app";
import { rawServerMap } from "../../src/main/mcp/config/parse";
import { parseConfigText } from "../../src/main/base/config-text";
import { createMemoryStore } from "../../src/main/secrets/memory-store";

const UI_TIMEOUT = 20_000;
const FIXTURE = join(repoRoot, "test", "fixtures", "echo-env.mjs");
let configPath: string;
let restoreHome = () => {};

const e2e = useBrowser({
  uiTimeout: UI_TIMEOUT,
  app: () => startFirstRun(),
  closeContexts: "after-all",
  afterAll: () => restoreHome(),
});

/** The companion on a first run (no config file yet), with a stand-in keychain. */
function startFirstRun() {
  const dir = mkdtempSync(join(tmpdir(), "tnc-server-form-"));
  mkdirSync(join(dir, "home", ".config"), { recursive: true });
  restoreHome = useHome(join(dir, "home"));
  configPath = join(dir, "mcp.json");
  // A stand-in keychain (this machine's tests have no Secret Service here): the form offers
  // "Keep it in the keychain" only where one is available.
  return startFromFile(configPath, { secrets: { ...createMemoryStore("stand-in"), available: true, detail: "a stand-in keychain for this test" } });
}

const card = (page: Page, name: string) => page.getByRole("article").filter({ has: page.getByRole("heading", { name, level: 2, exact: true }) });
const entry = (name: string) => rawServerMap(parseConfigText(readFileSync(configPath, "utf8")))[name];

describe("adding and editing a server in the app", () => {
  it("adds a local server through the form, edits it, keeps the file's comments, and stops the demo", async () => {
    const page = await e2e.open({ viewport: DESKTOP, ready: false });
    await page.getByRole("button", { name: "Try a question" }).click();
    await page.getByRole("form", { name: "Question" }).waitFor();
    await page.getByRole("navigation", { name: "Main" }).getByRole("button", { name: "Servers", exact: true }).click();
    const demo = card(page, "demo");
    await demo.getByRole("button", { name: "Stop demo" }).waitFor();

    await page.getByRole("button", { name: "Add a server" }).click();
    const form = page.getByRole("form", { name: "Add a server" });
    await form.getByRole("textbox", { name: "Name" }).fill("echo");
    await form.getByRole("textbox", { name: "Command" }).fill(process.execPath);
    await form.getByRole("textbox", { name: "Argument 1" }).fill(FIXTURE);
    await form.getByRole("button", { name: "Add a variable" }).click();
    await form.getByRole("textbox", { name: "Variable 1 name" }).fill("ECHO-ENV");
    await form.getByRole("textbox", { name: "Variable 1 value" }).fill("MODE");
    await shootAll(page, "servers-add-form");
    // The remote side of the same form: an Authorization header goes to the keychain by default.
    await form.getByRole("radio", { name: "On the web (an address)" }).check();
    await form.getByRole("textbox", { name: "Address" }).fill("https://mcp.example.com/mcp");
    await form.getByRole("button", { name: "Add a header" }).click();
    await form.getByRole("textbox", { name: "Header 1 name" }).fill("Authorization");
    expect(await form.getByRole("checkbox", { name: "Keep it in the keychain" }).isChecked()).toBe(true);
    await form.getByLabel("Header 1 value").fill("Bearer not-sent-in-this-test");
    await shootAll(page, "servers-add-form-remote");
    await form.getByRole("radio", { name: "On this computer (a program)" }).check();
    // Main refuses the env name on its field; nothing is written.
    await form.getByRole("button", { name: "Add the server" }).click();
    const envName = form.getByRole("textbox", { name: "Variable 1 name" });
    await expect.poll(() => envName.getAttribute("aria-invalid")).toBe("true");
    expect(await form.getByText("Letters, digits and _ only").isVisible()).toBe(true);
    await shootAll(page, "servers-add-form-refused");
    expect(() => readFileSync(configPath)).toThrow();

    await envName.fill("ECHO_ENV");
    await form.getByRole("button", { name: "Add a variable" }).click();
    await form.getByRole("textbox", { name: "Variable 2 name" }).fill("MODE");
    await form.getByRole("textbox", { name: "Variable 2 value" }).fill("first");
    await form.getByRole("button", { name: "Add the server" }).click();
    await form.waitFor({ state: "detached" });
    const echo = card(page, "echo");
    await echo.getByText("connected", { exact: true }).waitFor({ timeout: 30_000 });
    expect(await echo.locator(".server-target code").innerText()).toBe(`${process.execPath} ${FIXTURE}`);
    expect(entry("echo")).toEqual({ command: process.execPath, args: [FIXTURE], env: { ECHO_ENV: "MODE", MODE: "first" } });

    // The demo is still this session's only, now beside a config file: no Disable, Remove or Edit.
    for (const name of ["Disable", "Remove", "Edit"]) expect(await demo.getByRole("button", { name, exact: true }).count()).toBe(0);
    await shootAll(page, "servers-cards-with-demo");

    // The person annotates the file by hand; the app's edit must keep it.
    const annotated = readFileSync(configPath, "utf8").replace("{\n", "{\n  // servers I use every day\n");
    writeFileSync(configPath, annotated);
    await echo.getByRole("button", { name: "Edit" }).click();
    const edit = page.getByRole("form", { name: "Edit echo" });
    await expect.poll(() => edit.getByRole("textbox", { name: "Argument 1" }).inputValue()).toBe(FIXTURE);
    await edit.getByRole("button", { name: "Add an argument" }).click();
    await edit.getByRole("textbox", { name: "Argument 2" }).fill("--second-arg");
    await shootAll(page, "servers-edit-form");
    await edit.getByRole("button", { name: "Save changes" }).click();
    await edit.waitFor({ state: "detached" });
    const after = readFileSync(configPath, "utf8");
    expect(after).toContain("// servers I use every day");
    expect(entry("echo")).toEqual({ command: process.execPath, args: [FIXTURE, "--second-arg"], env: { ECHO_ENV: "MODE", MODE: "first" } });
    await expect.poll(() => echo.locator(".server-target code").innerText(), { timeout: UI_TIMEOUT }).toBe(`${process.execPath} ${FIXTURE} --second-arg`);
    await echo.getByText("connected", { exact: true }).waitFor({ timeout: 30_000 });
    // The restarted server runs with the new argument.
    const ran = await e2e.app.core.handlers["tools:run"]({ tool: "echo_started_with", args: {} });
    expect(JSON.stringify(ran)).toContain("--second-arg");

    await demo.getByRole("button", { name: "Stop demo" }).click();
    await demo.waitFor({ state: "detached" });
    expect(e2e.app.log.some((l) => l.includes('"demo": stopped for this session'))).toBe(true);
    expect(readFileSync(configPath, "utf8")).toBe(after);
    await page.context().close();
  }, 180_000);
});
