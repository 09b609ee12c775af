// The CLI behaves like the tools people know: --help/-h on every command and subcommand prints
// its usage and exits 0, --version prints the version, output into a closed pipe ends quietly,
// `--arg -y` is an argument, `start` runs the companion, and a failing server is logged once.
import { spawn } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { COMMANDS, main, USAGE } from "../../src/main/cli/main";
import { HistoryStore } from "../../src/main/history/store";
import { parseConfig } from "../../src/main/mcp/config/parse";
import { parseConfigText } from "../../src/main/base/config-text";
import { fixturesDir } from "../fixtures";
import { BIN, cli, ROOT, startUntil, tempHome, type TempHome } from "../helpers/cli";

let home: TempHome;
beforeAll(() => {
  home = tempHome("cli-conventions-");
});
afterAll(() => home.remove());

/** main() in this process (a launcher spawn costs a second or more per call on a shared machine). */
async function inProcess(argv: string[]) {
  const out: string[] = [];
  const err: string[] = [];
  const so = vi.spyOn(process.stdout, "write").mockImplementation((c) => (out.push(String(c)), true));
  const se = vi.spyOn(process.stderr, "write").mockImplementation((c) => (err.push(String(c)), true));
  try {
    const code = await main(argv, { start: async () => (await import("../../src/main/app/serve")).runServe });
    return { code, out: out.join(""), err: err.join("") };
  } finally {
    so.mockRestore();
    se.mockRestore();
  }
}

const invocations = Object.entries(COMMANDS).flatMap(([name, command]) => [[name], ...command.subcommands.map((sub) => [name, sub])]);

describe("help", { timeout: 120_000 }, () => {
  it("the top-level usage lists every command of the table, start included", async () => {
    for (const name of Object.keys(COMMANDS)) expect(USAGE).toMatch(new RegExp(`^  ${name}\\b`, "m"));
    expect(USAGE).toMatch(/^ {2}start \[--config PATH\]/m);
    for (const flag of ["--help", "-h", "help"]) expect(await inProcess([flag])).toMatchObject({ code: 0, out: USAGE, err: "" });
  });

  it.each(invocations.flatMap((words) => [[...words, "--help"].join(" "), [...words, "-h"].join(" ")]))("%s prints its usage and exits 0", async (line) => {
    const argv = line.split(" ");
    const run = await inProcess(argv);
    expect(run).toMatchObject({ code: 0, err: "" });
    expect(run.out).toMatch(/^Usage:/);
    expect(run.out).toContain(`toolnexus-companion ${argv[0]}`);
  });

  it("through the real launcher too (the ones that printed parseArgs' error before)", () => {
    for (const argv of [["agents", "connect", "--help"], ["servers", "add", "--help"], ["servers", "import", "-h"], ["start", "--help"]]) {
      const run = cli(argv);
      expect(run, argv.join(" ")).toMatchObject({ code: 0, stderr: "" });
      expect(run.stdout).toMatch(new RegExp(`^Usage:[\\s\\S]*toolnexus-companion ${argv[0]}`));
    }
  });

  it("--arg --help is a server's argument, not a request for help", async () => {
    const config = path.join(home.dir, "help-arg.json");
    const run = await inProcess(["servers", "add", "x", "--command", "tool", "--arg", "--help", "--config", config]);
    expect(run).toMatchObject({ code: 0, err: "" });
    expect(parseConfig(parseConfigText(readFileSync(config, "utf8")), { expand: false }).servers[0]).toMatchObject({ command: "tool", args: ["--help"] });
  });
});

describe("--version", () => {
  it("prints package.json's version", () => {
    const { version } = JSON.parse(readFileSync(path.join(ROOT, "package.json"), "utf8")) as { version: string };
    for (const flag of ["--version", "-v"]) expect(cli([flag])).toMatchObject({ code: 0, stdout: `${version}\n`, stderr: "" });
  });
});

describe("a closed output pipe", { timeout: 60_000 }, () => {
  it("history --json into a reader that leaves after one line ends quietly", async () => {
    const db = path.join(home.dir, "many.sqlite");
    const store = new HistoryStore({ path: db });
    const t = Date.now();
    // Far more than a pipe buffers (64 KiB), so the CLI is still writing when the reader leaves.
    for (let i = 0; i < 1000; i++) {
      store.insert({ requestId: `r${i}`, kind: "input", prompt: `question ${i} ${"x".repeat(200)}`, server: "ci", fields: [], outcome: "declined", by: "person", reason: "declined", receivedAt: t - 100_000 + i, settledAt: t - 100_000 + i + 5 });
    }
    store.close();
    const result = await new Promise<{ code: number | null; signal: NodeJS.Signals | null; stderr: string; first: string }>((resolve) => {
      const child = spawn(process.execPath, [BIN, "history", "--json", "--limit", "1000", "--db", db], { cwd: ROOT, stdio: ["ignore", "pipe", "pipe"] });
      let stderr = "";
      let first = "";
      child.stderr.setEncoding("utf8").on("data", (text: string) => (stderr += text));
      child.stdout.setEncoding("utf8").on("data", (text: string) => {
        if (first) return;
        first = text.split("\n")[0];
        child.stdout.destroy(); // `head -1` leaving: the CLI's next write meets a closed pipe
      });
      child.once("close", (code, signal) => resolve({ code, signal, stderr, first }));
    });
    expect(JSON.parse(result.first)).toMatchObject({ kind: "input" });
    expect(result.stderr).not.toMatch(/Error|EPIPE|\n\s+at /);
    expect(result.stderr).toBe("");
    expect(result.code === 0 || result.code === 141 || result.signal === "SIGPIPE").toBe(true);
  });
});

describe("servers add --arg", { timeout: 60_000 }, () => {
  it("takes a value that starts with a dash, as --arg -y and --arg=-y", () => {
    const config = path.join(home.dir, "dash.json");
    const run = cli(["servers", "add", "x", "--command", "npx", "--arg", "-y", "--arg", "pkg", "--arg=--flag=1", "--config", config]);
    expect(run).toMatchObject({ code: 0, stderr: "" });
    const server = parseConfig(parseConfigText(readFileSync(config, "utf8")), { expand: false }).servers.find((s) => s.name === "x");
    expect(server).toMatchObject({ command: "npx", args: ["-y", "pkg", "--flag=1"] });
  });
});

describe("start", { timeout: 60_000 }, () => {
  it("runs the companion; a failing server's failure is logged once, in one sentence with its name", async () => {
    const config = path.join(home.dir, "one-failing.json");
    const server = { command: process.execPath, args: [path.join(fixturesDir, "stderr-escapes.mjs")] };
    writeFileSync(config, JSON.stringify({ mcpServers: { broken: server } }));
    // Up to the second failure (the first restart's), then stop.
    const run = await startUntil(["--config", config, "--port", "0"], home.env, /\(attempt 2\)\.\n/);
    expect(run.matched).toBe(true);
    expect(run.stdout).toMatch(/^Toolnexus Companion is running: http:\/\/127\.0\.0\.1:\d+\//);
    const lines = run.stderr.split("\n");
    const first = lines.slice(0, lines.findIndex((l) => l.includes("(attempt 2)")));
    const aboutIt = first.filter((l) => l.includes("broken") || l.includes("boom"));
    expect(aboutIt).toEqual([expect.stringMatching(/^MCP server "broken" failed: the server process exited with code 3; its last output: boom +done; restarting in 1 s \(attempt 1\)\.$/)]);
    expect(lines.filter((l) => l.includes("broken"))).toHaveLength(2);
  });
});
