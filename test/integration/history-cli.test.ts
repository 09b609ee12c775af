// `toolnexus-companion history` as a person runs it: the real launcher in a child process, over a
// history file the app's store wrote.
import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { HistoryStore } from "../../src/main/history/store";
import { parseSince, runHistory } from "../../src/main/cli/history";

const root = path.resolve(import.meta.dirname, "../..");
const bin = path.join(root, "bin", "toolnexus-companion");
let dir: string;
let file: string;
const DAY = 86_400_000;

function cli(...args: string[]) {
  const run = spawnSync(process.execPath, [bin, "history", ...args], { cwd: root, encoding: "utf8", timeout: 30_000 });
  return { code: run.status, out: run.stdout, err: run.stderr };
}

beforeAll(() => {
  dir = mkdtempSync(path.join(tmpdir(), "history-cli-"));
  file = path.join(dir, "history.sqlite");
  const store = new HistoryStore({ path: file });
  const t = Date.now();
  store.insert({ requestId: "old", kind: "input", prompt: "Deploy last month?", server: "ci", fields: [], outcome: "declined", by: "person", reason: "declined", receivedAt: t - 10 * DAY, settledAt: t - 10 * DAY + 4000 });
  store.insert({ requestId: "new", kind: "input", prompt: "Which branch\nshould I deploy?", server: "github", agent: "cursor", fields: [{ key: "branch" }], outcome: "accepted", by: "person", answer: { branch: "main", token: "••••••" }, receivedAt: t - 1000, settledAt: t });
  store.close();
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe("toolnexus-companion history", () => {
  it("prints a compact table, oldest first, one line per question", () => {
    const { code, out } = cli("--db", file);
    expect(code).toBe(0);
    const lines = out.trimEnd().split("\n");
    expect(lines[0]).toMatch(/^WHEN\s+OUTCOME\s+KIND\s+ASKED BY\s+TOOK\s+PROMPT$/);
    expect(lines).toHaveLength(3);
    expect(lines[1]).toMatch(/Declined \(person\)\s+Form\s+ci\s+4\.0 s\s+Deploy last month\?$/);
    expect(lines[2]).toMatch(/Accepted \(person\)\s+Form\s+github \/ cursor\s+1\.0 s\s+Which branch should I deploy\?$/);
  });

  it("prints JSON lines, filtered by --since and --search", () => {
    const recent = cli("--db", file, "--json", "--since", "7d");
    expect(recent.code).toBe(0);
    const records = recent.out.trim().split("\n").map((l) => JSON.parse(l));
    expect(records).toMatchObject([{ requestId: "new", outcome: "accepted", answer: { branch: "main", token: "••••••" } }]);
    const found = cli("--db", file, "--json", "--search", "last month");
    expect(found.out.trim().split("\n").map((l) => JSON.parse(l).requestId)).toEqual(["old"]);
  });

  it("says so when there is no history yet, and refuses bad arguments", () => {
    const none = cli("--db", path.join(dir, "missing.sqlite"));
    expect(none).toMatchObject({ code: 0, out: "" });
    expect(none.err).toMatch(/No history yet/);
    expect(cli("--db", file, "--since", "yesterday")).toMatchObject({ code: 2, err: expect.stringMatching(/--since takes/) });
  });

  it("refuses a bad --limit or an unknown option (in process)", async () => {
    const errors: string[] = [];
    const spy = vi.spyOn(process.stderr, "write").mockImplementation((chunk) => (errors.push(String(chunk)), true));
    try {
      expect(await runHistory(["--db", file, "--limit", "0"])).toBe(2);
      expect(await runHistory(["--bogus"])).toBe(2);
    } finally {
      spy.mockRestore();
    }
    expect(errors.join("")).toMatch(/--limit takes a whole number[\s\S]*Unknown option '--bogus'/);
  });

  it("reads --since as a local date, an RFC 3339 time, or an age", () => {
    const now = Date.UTC(2026, 10, 30, 12);
    expect(parseSince("24h", now)).toBe(now - DAY);
    expect(parseSince("30m", now)).toBe(now - 30 * 60_000);
    expect(parseSince("2026-11-01", now)).toBe(new Date(2026, 10, 1).getTime());
    expect(parseSince("2026-11-01T10:00:00Z", now)).toBe(Date.UTC(2026, 10, 1, 10));
    expect(parseSince("1e3d", now)).toBeUndefined();
  });
});
