// Rules end to end: a real MCP server (stdio fixture) elicits through the real Inbox; the person's
// "Always answer this way" answers its next question at once; history (a real SQLite file) records
// it as answered by the rule; a new session reloads the kept rule; the CLI (the real launcher in a
// child process) lists and removes it, and the running app stops using it.
import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { runRules } from "../../src/main/cli/rules";
import { Inbox, inboxWaitFor } from "../../src/main/inbox";
import { loadMcp, type McpSource } from "../../src/main/mcp/source";
import { openHistory, type HistoryHandle } from "../../src/main/history";
import { openRules, type RulesHandle } from "../../src/main/rules";
import type { InboxEvent, PendingEntry } from "../../src/shared/types";
import { fixtureCommand, repoRoot } from "../fixtures";
import { until } from "../helpers/poll";
import { approvalRequest } from "../../src/main/hooks/approval-request";
import { toEnvelope } from "../../src/main/rpc/envelope";
import { companionWaitFor } from "../../src/main/cli/companion-client";
import { nextQuestion, startCompanion } from "./gateway-harness";
import { outputOf } from "../helpers/tool-output";

const bin = path.join(repoRoot, "bin", "toolnexus-companion");
let dir: string;
let rulesFile: string;

function cli(...args: string[]) {
  const run = spawnSync(process.execPath, [bin, "rules", ...args, "--file", rulesFile], { cwd: repoRoot, encoding: "utf8", timeout: 30_000 });
  return { code: run.status, out: run.stdout, err: run.stderr };
}

/** The same command in this process (the launcher costs seconds per spawn on a shared machine). */
async function runRulesIn(args: string[]) {
  const out: string[] = [];
  const err: string[] = [];
  const so = vi.spyOn(process.stdout, "write").mockImplementation((c) => (out.push(String(c)), true));
  const se = vi.spyOn(process.stderr, "write").mockImplementation((c) => (err.push(String(c)), true));
  try {
    const code = await runRules(args);
    return { code, out: out.join(""), err: err.join("") };
  } finally {
    so.mockRestore();
    se.mockRestore();
  }
}

const inProcess = (...args: string[]) => runRulesIn([...args, "--file", rulesFile]);

interface Session {
  inbox: Inbox;
  source: McpSource;
  rules: RulesHandle;
  history: HistoryHandle;
  events: InboxEvent[];
  close(): Promise<void>;
}

async function session(): Promise<Session> {
  const inbox = new Inbox();
  const events: InboxEvent[] = [];
  inbox.on((e) => events.push(e));
  const history = openHistory(inbox, { path: path.join(dir, "history.sqlite") });
  const rules = openRules(inbox, { path: rulesFile });
  const source = await loadMcp({ mcpServers: { deploy: fixtureCommand("modern-elicit") } }, { waitFor: inboxWaitFor(inbox) });
  return {
    inbox,
    source,
    rules,
    history,
    events,
    async close() {
      inbox.close();
      rules.close();
      await history.recorder.flush();
      history.close();
      await source.close();
    },
  };
}

const call = (s: Session) => outputOf(s.source.tools.find((t) => t.name === "deploy_ask_region")!.execute({}));

function pending(s: Session): Promise<PendingEntry> {
  return until(() => s.inbox.list()[0], 5000, () => "no question arrived");
}

beforeAll(() => {
  dir = mkdtempSync(path.join(tmpdir(), "rules-int-"));
  rulesFile = path.join(dir, "rules.json");
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe("rules against a real server, history and the CLI", () => {
  let ruleId = "";

  it("the person's rule answers the server's next question at once, and history records it by the rule", async () => {
    const s = await session();
    try {
      const first = call(s);
      const entry = await pending(s);
      expect(entry.source.server).toBe("deploy");
      const view = await s.rules.handlers["rules:add"]({ questionId: entry.request.id, action: "accept", data: { region: "apac" }, scope: "always" });
      ruleId = view.id;
      s.inbox.answer(entry.request.id, { ok: true, data: { region: "apac" } });
      await expect(first).resolves.toMatchObject({ output: "region: apac" });

      const started = performance.now();
      await expect(call(s)).resolves.toMatchObject({ output: "region: apac" });
      const ms = performance.now() - started;
      expect(s.inbox.list()).toEqual([]);
      const byRule = s.events.filter((e) => e.type === "answered" && e.by === "rule");
      expect(byRule).toEqual([expect.objectContaining({ ruleId, answer: expect.objectContaining({ ok: true, data: { region: "apac" } }) })]);
      await s.history.recorder.flush();
      const rows = s.history.store.list({ server: "deploy" }).items;
      expect(rows.map((r) => [r.outcome, r.by])).toEqual([
        ["accepted", "rule"],
        ["accepted", "person"],
      ]);
      console.log(`rules: a tool call answered by a rule round-trips in ${ms.toFixed(0)} ms`);
    } finally {
      await s.close();
    }
  });

  it("a new session reloads the kept rule; the CLI lists it and removes it, and the running app stops using it", async () => {
    const s = await session();
    try {
      await expect(call(s)).resolves.toMatchObject({ output: "region: apac" });

      const listed = cli("list", "--json");
      expect(listed.code).toBe(0);
      expect(listed.out.trim().split("\n").map((l) => JSON.parse(l))).toEqual([
        expect.objectContaining({ id: ruleId, server: "deploy", action: "accept", data: { region: "apac" }, explanation: expect.stringMatching(/^Accept the form \(Region\) from deploy.*Region = "apac", until you remove it\.$/) }),
      ]);
      expect(await inProcess("list")).toMatchObject({ code: 0, out: expect.stringMatching(new RegExp(`^${ruleId}  Accept the form`)) });
      expect(await inProcess("remove", "no-such-rule")).toMatchObject({ code: 1, err: expect.stringMatching(/no rule "no-such-rule"/) });

      expect(cli("remove", ruleId)).toMatchObject({ code: 0, out: `Removed rule ${ruleId}.\n` });
      expect(await inProcess("list")).toMatchObject({ code: 0, out: "", err: "No rules kept.\n" });

      const next = call(s);
      const entry = await pending(s);
      s.inbox.answer(entry.request.id, { ok: false, reason: "declined" });
      await expect(next).resolves.toMatchObject({ output: "declined" });
      expect(s.rules.store.list()).toEqual([]);
    } finally {
      await s.close();
    }
  });

  it("the CLI says so when there is no rules file, and refuses unknown commands (in process)", async () => {
    expect(await runRulesIn(["list", "--file", path.join(dir, "none.json")])).toMatchObject({ code: 0, err: expect.stringMatching(/No rules yet/) });
    expect(await inProcess("add")).toMatchObject({ code: 2, err: expect.stringMatching(/"add" is not a rules command/) });
    expect(await inProcess("remove")).toMatchObject({ code: 2 });
    expect(await runRulesIn(["list", "--bogus"])).toMatchObject({ code: 2, err: expect.stringMatching(/Unknown option '--bogus'/) });
  });
});

describe("an agent's permission prompt over /v1/requests", () => {
  it("allowed again by a session rule when repeated exactly; never for a shell command", async () => {
    const companion = await startCompanion({ everything: false });
    const rules = openRules(companion.inbox);
    try {
      const waitFor = companionWaitFor({ url: companion.listener.url, token: companion.token, agent: "claude-code" });
      const edit = { tool: "Edit", toolInput: { file_path: "/home/ada/app/a.ts", old_string: "a", new_string: "b" }, cwd: "/home/ada/app", sessionId: "s1" };

      const first = approvalRequest("Claude Code", edit);
      const asked = nextQuestion(companion, (e) => e.request.id === first.id);
      const pendingFirst = waitFor(first);
      const entry = await asked;
      const rule = await rules.handlers["rules:add"]({ questionId: entry.request.id, action: "accept", scope: "session" });
      expect(rule).toMatchObject({ type: "approval", scope: "session", explanation: expect.stringMatching(/^Allow Claude Code to use Edit in \/home\/ada\/app again/) });
      companion.inbox.answer(entry.request.id, { ok: true });
      expect(await pendingFirst).toEqual({ id: first.id, ok: true });

      const again = approvalRequest("Claude Code", edit);
      expect(await waitFor(again)).toEqual({ id: again.id, ok: true });

      const shell = approvalRequest("Claude Code", { ...edit, tool: "Bash", toolInput: { command: "rm -rf build" } });
      const shellAsked = nextQuestion(companion, (e) => e.request.id === shell.id);
      const pendingShell = waitFor(shell);
      const shellEntry = await shellAsked;
      expect(await toEnvelope(() => rules.handlers["rules:add"]({ questionId: shellEntry.request.id, action: "accept", scope: "session" }))).toMatchObject({
        ok: false,
        error: { code: "rule-refused", message: expect.stringMatching(/shell command is always yours/) },
      });
      companion.inbox.answer(shellEntry.request.id, { ok: false, reason: "declined", data: { message: "not now" } });
      expect(await pendingShell).toEqual({ id: shell.id, ok: false, reason: "declined", data: { message: "not now" } });
    } finally {
      rules.close();
      await companion.close();
    }
  });
});
