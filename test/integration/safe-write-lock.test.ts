// Property tests: whatever the interleaving of concurrent edits of one file — asynchronous and
// synchronous writers, started at random moments, with a crashed writer's lock (dead pid, or too
// old) left behind, and writers in threads of their own running truly at once — every edit is
// kept, and nothing but the file remains beside it.
import { Worker } from "node:worker_threads";
import { spawnSync } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync, rmSync, utimesSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import fc from "fast-check";
import { afterAll, describe, expect, it } from "vitest";
import { lockPathOf } from "../../src/main/base/file-lock";
import { editFileSafe, editFileSafeSync } from "../../src/main/base/safe-write";

const root = mkdtempSync(join(tmpdir(), "safe-write-fuzz-"));
afterAll(() => rmSync(root, { recursive: true, force: true }));
const deadPid = spawnSync(process.execPath, ["-e", ""]).pid!;

const addKey = (key: string) => (current: string | undefined) => {
  const value = current ? (JSON.parse(current) as Record<string, number>) : {};
  value[key] = (value[key] ?? 0) + 1;
  return `${JSON.stringify(value)}\n`;
};

const op = fc.record({ sync: fc.boolean(), delayMs: fc.integer({ min: 0, max: 8 }) });

describe("safe writer under concurrent edits (fuzz)", () => {
  it("keeps every edit", { timeout: 120_000 }, async () => {
    let run = 0;
    await fc.assert(
      fc.asyncProperty(fc.array(op, { minLength: 2, maxLength: 10 }), fc.constantFrom("none", "dead", "old"), async (ops, leftover) => {
        const dir = join(root, `r${run++}`);
        const path = join(dir, "state.json");
        editFileSafeSync(path, () => "{}\n");
        if (leftover !== "none") {
          writeFileSync(lockPathOf(path), JSON.stringify({ pid: leftover === "dead" ? deadPid : process.pid, token: "crashed" }));
          if (leftover === "old") utimesSync(lockPathOf(path), new Date(Date.now() - 120_000), new Date(Date.now() - 120_000));
        }
        await Promise.all(
          ops.map(
            ({ sync, delayMs }, i) =>
              new Promise<void>((resolve, reject) => {
                setTimeout(() => {
                  try {
                    if (sync) {
                      editFileSafeSync(path, addKey(`k${i}`), { lock: { waitMs: 5000 } });
                      resolve();
                    } else {
                      editFileSafe(path, addKey(`k${i}`), { lock: { waitMs: 5000 } }).then(() => resolve(), reject);
                    }
                  } catch (error) {
                    reject(error);
                  }
                }, delayMs);
              }),
          ),
        );
        const final = JSON.parse(readFileSync(path, "utf8")) as Record<string, number>;
        expect(Object.keys(final).sort()).toEqual(ops.map((_, i) => `k${i}`).sort());
        expect(Object.values(final).every((n) => n === 1)).toBe(true);
        expect(readdirSync(dir)).toEqual(["state.json"]);
      }),
      { numRuns: 30 },
    );
  });

  it("keeps every edit of writers running in parallel threads", { timeout: 180_000 }, async () => {
    let run = 0;
    await fc.assert(
      fc.asyncProperty(fc.array(fc.record({ sync: fc.boolean(), edits: fc.integer({ min: 1, max: 6 }) }), { minLength: 2, maxLength: 4 }), async (writers) => {
        const dir = join(root, `t${run++}`);
        const path = join(dir, "state.json");
        editFileSafeSync(path, () => "{}\n");
        const keys = writers.map((w, i) => Array.from({ length: w.edits }, (_, j) => `w${i}e${j}`));
        await Promise.all(
          writers.map(
            (w, i) =>
              new Promise<void>((resolve, reject) => {
                const worker = new Worker(new URL("./safe-write-worker.mjs", import.meta.url), { workerData: { path, keys: keys[i], sync: w.sync } });
                worker.on("error", reject);
                worker.on("exit", (code) => (code === 0 ? resolve() : reject(new Error(`writer ${i} exited ${code}`))));
              }),
          ),
        );
        const final = JSON.parse(readFileSync(path, "utf8")) as Record<string, number>;
        expect(Object.keys(final).sort()).toEqual(keys.flat().sort());
        expect(readdirSync(dir)).toEqual(["state.json"]);
      }),
      { numRuns: 8 },
    );
  });
});
