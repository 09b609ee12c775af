// Terminals obey escape sequences in whatever they are sent. Text from outside — another app's
// config, a question's prompt, a server's stderr — passes through the companion's CLI and log
// lines without one of them: no OSC 52 clipboard write, no clear screen, no window title, no 8-bit
// C1 form of those, no BEL and no bidi override reaches the terminal. --json keeps each value
// exactly, with those characters escaped.
import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { HistoryStore } from "../../../src/main/history/store";
import { fixturesDir } from "../../fixtures";
import { cli, startUntil, tempHome, TERMINAL_CONTROLS, type TempHome } from "../../helpers/cli";

const OSC52 = "\x1b]52;c;ZXZpbA==\x07";
const CLEAR = "\x1b[2J\x1b[H";
const TITLE = "\x1b]0;pwned\x07";
const C1 = "\u009b2J\u009d0;x\u009c";
const HOSTILE = `${OSC52}${CLEAR}${TITLE}${C1}\x07\u202e`;

let home: TempHome;
beforeAll(() => {
  home = tempHome("terminal-escapes-");
});
afterAll(() => home.remove());

function clean(run: { stdout: string; stderr: string }): void {
  expect(run.stdout).not.toMatch(TERMINAL_CONTROLS);
  expect(run.stderr).not.toMatch(TERMINAL_CONTROLS);
  // Not even the visible remains of a sequence: a stripped sequence goes whole.
  for (const remains of ["ZXZpbA==", "pwned", "[2J"]) expect(run.stdout + run.stderr).not.toContain(remains);
}

describe("another app's config, through servers import and servers list", { timeout: 90_000 }, () => {
  const name = `evil${HOSTILE}`;
  const command = `npx${TITLE}`;
  const args = ["-y", `pkg${C1}${CLEAR}`];
  beforeAll(() => {
    mkdirSync(path.join(home.dir, ".cursor"), { recursive: true });
    writeFileSync(path.join(home.dir, ".cursor", "mcp.json"), JSON.stringify({ mcpServers: { [name]: { command, args } } }));
  });
  const servers = (...rest: string[]) => cli(["servers", ...rest], { env: home.env, cwd: home.dir });

  it("import --dry-run prints the server, its name and command without a control character", () => {
    const run = servers("import", "--dry-run", "--from", "cursor");
    expect(run.code).toBe(0);
    expect(run.stdout).not.toMatch(TERMINAL_CONTROLS);
    expect(run.stderr).not.toMatch(TERMINAL_CONTROLS);
    // The name is shown as its text; a command part that holds controls is quoted, escapes visible.
    expect(run.stdout).toContain('+ evil  local  "npx\\u001b]0;pwned\\u0007" -y "pkg\\u009b2J\\u009d0;x\\u009c\\u001b[2J\\u001b[H"');
  });

  it("import --dry-run --json keeps every value, escaped", () => {
    const run = servers("import", "--dry-run", "--json", "--from", "cursor");
    expect(run.code).toBe(0);
    expect(run.stdout).not.toMatch(TERMINAL_CONTROLS);
    expect(run.stdout).toContain("\\u009b2J\\u009d0;x\\u009c");
    expect(JSON.parse(run.stdout)).toMatchObject([{ name, command, args }]);
  });

  it("servers list (table and --json) after the import", () => {
    expect(servers("import", "--from", "cursor").code).toBe(0);
    const table = servers("list");
    expect(table.code).toBe(0);
    expect(table.stdout).toMatch(/• evil {2}local/);
    expect(table.stdout).not.toMatch(TERMINAL_CONTROLS);
    expect(table.stderr).not.toMatch(TERMINAL_CONTROLS);
    const json = servers("list", "--json");
    expect(json.code).toBe(0);
    expect(json.stdout).not.toMatch(TERMINAL_CONTROLS);
    expect(JSON.parse(json.stdout)).toMatchObject([{ name, command, args }]);
  });
});

describe("a question's prompt, through history", { timeout: 60_000 }, () => {
  let db: string;
  const prompt = `Deploy?${HOSTILE} now`;
  beforeAll(() => {
    db = path.join(home.dir, "history.sqlite");
    const store = new HistoryStore({ path: db });
    const t = Date.now();
    store.insert({ requestId: "r1", kind: "input", prompt, server: `ci${TITLE}`, agent: `cursor${C1}`, fields: [], outcome: "declined", by: "person", reason: "declined", receivedAt: t - 2000, settledAt: t - 1000 });
    store.close();
  });

  it("the table shows the prompt's text only", () => {
    const run = cli(["history", "--db", db]);
    expect(run.code).toBe(0);
    clean(run);
    expect(run.stdout).toMatch(/ci \/ cursor .*Deploy\? now$/m);
  });

  it("--json keeps the prompt exactly, every control escaped (C1 included)", () => {
    const run = cli(["history", "--json", "--db", db]);
    expect(run.code).toBe(0);
    expect(run.stdout).not.toMatch(TERMINAL_CONTROLS);
    expect(run.stdout).toContain("\\u009b2J\\u009d0;x\\u009c\\u0007\\u202e now");
    expect(JSON.parse(run.stdout)).toMatchObject({ requestId: "r1", prompt, server: `ci${TITLE}`, agent: `cursor${C1}` });
  });
});

describe("a server's stderr, through the companion's log", { timeout: 60_000 }, () => {
  it("the failure line quotes the server's output without its escape sequences", async () => {
    const config = path.join(home.dir, "stderr-escapes.json");
    const server = { command: process.execPath, args: [path.join(fixturesDir, "stderr-escapes.mjs")] };
    writeFileSync(config, JSON.stringify({ mcpServers: { [`loud${TITLE}`]: server } }));
    const run = await startUntil(["--config", config, "--port", "0"], home.env, /MCP server "loud" failed:.*\n/);
    expect(run.matched).toBe(true);
    clean(run);
    expect(run.stderr).toMatch(/MCP server "loud" failed: .*its last output: boom +done; restarting in 1 s \(attempt 1\)\./);
  });
});
