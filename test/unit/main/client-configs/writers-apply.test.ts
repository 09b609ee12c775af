// Applying a planned change: the backup beside the file (never overwriting an older one), the
// refusal when the agent rewrote its file since the plan, and the dry-run diff.
import { mkdtemp, readdir, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { apply, diff, plan } from "../../../../src/main/client-configs/agents";
import { EditError } from "../../../../src/main/client-configs/json-edit";
import type { Machine } from "../../../../src/main/client-configs/types";
import { writerById } from "../../../../src/main/client-configs/writers";

let home: string;
let machine: Machine;
const connect = { via: "shim" as const, cli: { command: "toolnexus-companion", args: [] }, gatewayUrl: "http://127.0.0.1:7315/mcp" };
const ORIGINAL = '{\n  "mcpServers": {\n    "a": { "command": "a" }\n  }\n}\n';

beforeEach(async () => {
  home = await mkdtemp(join(tmpdir(), "writers-apply-"));
  machine = { platform: "linux", home, env: {} };
  await writeFile(join(home, ".claude.json"), ORIGINAL);
});
afterEach(async () => {
  await rm(home, { recursive: true, force: true });
});

describe("apply", () => {
  it("backs up the original beside the file and never overwrites an older backup", async () => {
    const now = new Date("2026-05-01T10:20:30.456Z");
    const [change] = await plan(writerById("claude-code")!, machine, { connect }, true);
    expect(await apply(change, now)).toEqual({ backup: join(home, ".claude.json.bak-20260501T102030Z") });
    const [undo] = await plan(writerById("claude-code")!, machine, { connect }, false);
    expect(await apply(undo, now)).toEqual({ backup: join(home, ".claude.json.bak-20260501T102030Z-1") });
    expect(await readFile(join(home, ".claude.json.bak-20260501T102030Z"), "utf8")).toBe(ORIGINAL);
    expect(await readFile(join(home, ".claude.json"), "utf8")).toBe(ORIGINAL);
  });

  it("refuses to write when the file changed after the plan (the agent rewrote it meanwhile)", async () => {
    const [change] = await plan(writerById("claude-code")!, machine, { connect }, true);
    await writeFile(join(home, ".claude.json"), ORIGINAL.replace('"a"', '"b"'));
    await expect(apply(change)).rejects.toThrow(EditError);
    expect(await readFile(join(home, ".claude.json"), "utf8")).toBe(ORIGINAL.replace('"a"', '"b"'));
    expect((await readdir(home)).filter((n) => n.includes(".bak-"))).toEqual([]);
  });

  it("the dry-run diff shows the added lines with their context", async () => {
    const [change] = await plan(writerById("claude-code")!, machine, { connect }, true);
    expect(diff(change)).toBe(
      [
        `--- ${join(home, ".claude.json")}`,
        `+++ ${join(home, ".claude.json")}`,
        "@@ -1,5 +1,14 @@",
        " {",
        '   "mcpServers": {',
        '-    "a": { "command": "a" }',
        '+    "a": { "command": "a" },',
        '+    "toolnexus": {',
        '+      "type": "stdio",',
        '+      "command": "toolnexus-companion",',
        '+      "args": [',
        '+        "connect",',
        '+        "--agent",',
        '+        "claude-code"',
        "+      ]",
        "+    }",
        "   }",
        " }",
        "",
      ].join("\n"),
    );
  });
});
