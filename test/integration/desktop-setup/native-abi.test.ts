// A native addon built for another runtime, for real: node_modules' better-sqlite3 is built for
// this Node (20); loaded by Node 22 it fails with Node's own ABI error, as it would in Electron.
// The history store must say which addon, the two ABIs and the command, and keep working without
// history (the question is still answered).
import { execFile } from "node:child_process";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";
import { ensureNode22 } from "../../conformance/node22";

const run = promisify(execFile);
const root = path.resolve(__dirname, "../../..");

describe("a better-sqlite3 built for another ABI", () => {
  it("leaves history unavailable with the addon, both ABIs and the fix named, and answering works", async () => {
    const node22 = await ensureNode22(root);
    const dir = mkdtempSync(path.join(tmpdir(), "tnc-abi-"));
    const script = path.join(dir, "open.mts");
    writeFileSync(
      script,
      `import { Inbox } from ${JSON.stringify(path.join(root, "src/main/inbox"))};
import { openHistory } from ${JSON.stringify(path.join(root, "src/main/history"))};
const lines: string[] = [];
const inbox = new Inbox();
const history = openHistory(inbox, { path: ${JSON.stringify(path.join(dir, "h.sqlite"))}, log: (l) => lines.push(l), native: { fix: "npm run rebuild:electron" } });
const answered = inbox.waitFor({ id: "q1", kind: "input", prompt: "Still works?" }, { source: { server: "demo" } });
inbox.answer("q1", { ok: true, data: {} });
const answer = await answered;
console.log(JSON.stringify({ status: history.status(), answer, lines, abi: process.versions.modules }));
history.close();
`,
    );
    const { stdout } = await run(node22, [path.join(root, "node_modules/tsx/dist/cli.mjs"), script], { cwd: root, timeout: 60_000 });
    const result = JSON.parse(stdout.trim().split("\n").pop()!);
    expect(result.abi).toBe("127");
    expect(result.answer).toEqual({ id: "q1", ok: true, data: {} });
    expect(result.status.state).toBe("unavailable");
    expect(result.status.detail).toBe(
      `better-sqlite3 was built for Node 20 (NODE_MODULE_VERSION ${process.versions.modules}) but this runtime needs NODE_MODULE_VERSION 127; run \`npm run rebuild:electron\` to build it for this runtime`,
    );
    // The log says it once, in the same words.
    expect(result.lines.filter((l: string) => l.includes("better-sqlite3"))).toEqual([`history: ${result.status.detail}`]);
  });
});
