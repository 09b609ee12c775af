// Watching the config folder (editors save by rename) and telling added, removed and changed
// servers apart.
import { mkdtemp, rename, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { parseConfig } from "../../../../../src/main/mcp/config/parse";
import { diffServers, watchConfig, type ConfigWatch } from "../../../../../src/main/mcp/config/watch";

const servers = (map: Record<string, unknown>) => parseConfig({ mcpServers: map }).servers;

describe("diffServers", () => {
  it("names the added, removed and changed servers and leaves the rest", () => {
    const before = servers({ keep: { command: "a" }, change: { command: "a" }, drop: { url: "http://127.0.0.1:1/mcp" } });
    const after = servers({ change: { command: "a", args: ["x"] }, keep: { command: "a" }, add: { command: "b" } });
    const diff = diffServers(before, after);
    expect(diff.added.map((s) => s.name)).toEqual(["add"]);
    expect(diff.removed).toEqual(["drop"]);
    expect(diff.changed.map((s) => s.name)).toEqual(["change"]);
    expect(diff.unchanged).toEqual(["keep"]);
  });

  it("a reordered env or a disabled flag: key order is not a change, disabling is", () => {
    const before = servers({ s: { command: "a", env: { A: "1", B: "2" } } });
    expect(diffServers(before, servers({ s: { command: "a", env: { B: "2", A: "1" } } })).unchanged).toEqual(["s"]);
    expect(diffServers(before, servers({ s: { command: "a", env: { A: "1", B: "2" }, disabled: true } })).changed).toHaveLength(1);
  });
});

describe("watchConfig", () => {
  let dir: string;
  let watch: ConfigWatch | undefined;
  afterEach(async () => {
    watch?.close();
    await rm(dir, { recursive: true, force: true });
  });

  it("one change per burst of writes, a save by rename included; other files ignored; a missing folder created", async () => {
    dir = await mkdtemp(join(tmpdir(), "watch-"));
    const folder = join(dir, "not-yet");
    const path = join(folder, "mcp.json");
    let changes = 0;
    watch = watchConfig(path, { debounceMs: 80, onChange: () => changes++ });
    await writeFile(join(folder, "other.json"), "{}");
    await new Promise((r) => setTimeout(r, 200));
    expect(changes).toBe(0);
    await writeFile(path, "{}");
    await writeFile(path, '{"mcpServers":{}}');
    await writeFile(`${path}.tmp`, '{"mcpServers":{"a":{"command":"x"}}}');
    await rename(`${path}.tmp`, path);
    await new Promise((r) => setTimeout(r, 300));
    expect(changes).toBe(1);
    await writeFile(path, "{}");
    await new Promise((r) => setTimeout(r, 40));
    // flush runs the pending read at once, without waiting out the debounce.
    await watch.flush();
    expect(changes).toBe(2);
  });
});
