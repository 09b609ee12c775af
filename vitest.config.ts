import { readdirSync, readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { defineConfig } from "vitest/config";
import { svelte } from "@sveltejs/vite-plugin-svelte";
import { svelteTesting } from "@testing-library/svelte/vite";

// Lanes, each a project (`vitest run --project <name>`; `npm run test:unit` is `--project 'unit*'`):
//   unit, unit-isolated, unit-renderer  no server process or browser of their own; under a minute
//   integration                         real MCP servers, processes, the CLI, the keychain
//   e2e                                 Chromium on the built page, the bundled app
//   conformance                         the official MCP conformance suite, both sides
//   interop                             outside MCP clients and servers around a real companion

const root = dirname(fileURLToPath(import.meta.url));
const UNIT_DIRS = ["test/unit", "test/fuzz"];
const MOCKS = /\bvi\.(mock|doMock)\(/;

/** The unit test files that replace a module (vi.mock), themselves or through a helper beside them. */
function mockingFiles(): string[] {
  const found: string[] = [];
  for (const dir of UNIT_DIRS) {
    for (const name of readdirSync(join(root, dir), { recursive: true, encoding: "utf8" })) {
      if (!name.endsWith(".test.ts")) continue;
      const file = join(root, dir, name);
      const text = readFileSync(file, "utf8");
      const helpers = [...text.matchAll(/from "(\.\.?\/[^"]+)"/g)].map((m) => join(dirname(file), m[1]!));
      if (MOCKS.test(text) || helpers.some((h) => MOCKS.test(readIfFile(`${h}.ts`) ?? readIfFile(h) ?? ""))) found.push(join(dir, name));
    }
  }
  return found;
}

function readIfFile(path: string): string | undefined {
  try {
    return readFileSync(path, "utf8");
  } catch {
    return undefined;
  }
}

const mocking = mockingFiles();
const unitInclude = UNIT_DIRS.map((d) => `${d}/**/*.test.ts`);

export default defineConfig({
  test: {
    // Two workers in each group of projects: real servers and browsers on two cores do not like
    // more at once. Set here, not per project, so that --maxWorkers on the command line wins.
    maxWorkers: 2,
    projects: [
      {
        test: {
          // The pure lane shares one module graph per worker (isolate: false): importing the app's
          // modules afresh for each of a hundred files cost more than running their tests. So a
          // file leaves what it changes as it found it (fake timers, spies, process.env).
          name: "unit",
          environment: "node",
          include: unitInclude,
          exclude: mocking,
          isolate: false,
          testTimeout: 60_000,
          hookTimeout: 60_000,
          sequence: { groupOrder: 0 },
        },
      },
      {
        test: {
          // A vi.mock replaces a module for its file only when that file has a module graph of its own.
          name: "unit-isolated",
          environment: "node",
          // (An empty include would mean the default one, every test file.)
          include: mocking.length > 0 ? mocking : ["test/unit/no-file-mocks-a-module"],
          testTimeout: 60_000,
          hookTimeout: 60_000,
          sequence: { groupOrder: 0 },
        },
      },
      {
        // Svelte component tests in jsdom. Svelte 5 must resolve to its browser build ("browser"
        // condition), or mount() is the server stub; svelteTesting also adds auto-cleanup.
        plugins: [svelte({ configFile: false }), svelteTesting()],
        resolve: { conditions: ["browser"] },
        test: {
          name: "unit-renderer",
          environment: "jsdom",
          include: ["test/renderer/**/*.test.ts"],
          // A fresh module graph (stores included) per file, in a VM context of a reused worker:
          // jsdom and the compiled components are loaded once per worker, not once per file.
          pool: "vmThreads",
          // getByRole over a 13-field form is slow in jsdom, and the machine is shared.
          testTimeout: 30_000,
          sequence: { groupOrder: 0 },
        },
      },
      {
        test: {
          name: "integration",
          environment: "node",
          include: ["test/integration/**/*.test.ts"],
          testTimeout: 60_000,
          hookTimeout: 60_000,
          // After the jsdom tests, not beside them: on two cores four workers at once starved the
          // browsers and real servers of the end-to-end tests (a question 45 s late in CI).
          sequence: { groupOrder: 1 },
        },
      },
      {
        test: {
          name: "e2e",
          environment: "node",
          include: ["test/e2e/**/*.test.ts"],
          testTimeout: 60_000,
          hookTimeout: 60_000,
          sequence: { groupOrder: 1 },
        },
      },
      {
        test: {
          name: "conformance",
          environment: "node",
          include: ["test/conformance/**/*.test.ts"],
          // The client scenarios run this many at once (describe.concurrent in client.test.ts).
          maxConcurrency: 3,
          testTimeout: 60_000,
          hookTimeout: 60_000,
          sequence: { groupOrder: 1 },
        },
      },
      {
        test: {
          name: "interop",
          environment: "node",
          // Real outside MCP clients (as agents, under Node 22) and servers around a real companion;
          // one file per client library so the two workers run two libraries at once.
          include: ["test/interop/**/*.test.ts"],
          testTimeout: 60_000,
          hookTimeout: 90_000,
          sequence: { groupOrder: 2 },
        },
      },
    ],
  },
});
