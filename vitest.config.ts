import { defineConfig } from "vitest/config";
import { svelte } from "@sveltejs/vite-plugin-svelte";
import { svelteTesting } from "@testing-library/svelte/vite";

export default defineConfig({
  test: {
    projects: [
      {
        test: {
          name: "node",
          environment: "node",
          include: ["test/unit/**/*.test.ts", "test/fuzz/**/*.test.ts", "test/integration/**/*.test.ts", "test/e2e/**/*.test.ts", "test/conformance/**/*.test.ts"],
          testTimeout: 60_000,
          hookTimeout: 60_000,
          // Integration tests spawn real servers and browsers; two cores do not like many at once.
          maxWorkers: 2,
          // After the jsdom tests, not beside them: on two cores four workers at once starved the
          // browsers and real servers of the end-to-end tests (a question 45 s late in CI).
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
          maxWorkers: 2,
          sequence: { groupOrder: 2 },
        },
      },
      {
        // Svelte component tests in jsdom. Svelte 5 must resolve to its browser build ("browser"
        // condition), or mount() is the server stub; svelteTesting also adds auto-cleanup.
        plugins: [svelte({ configFile: false }), svelteTesting()],
        resolve: { conditions: ["browser"] },
        test: {
          name: "renderer",
          environment: "jsdom",
          include: ["test/renderer/**/*.test.ts"],
          // getByRole over a 13-field form is slow in jsdom, and the machine is shared.
          testTimeout: 30_000,
          maxWorkers: 2,
          sequence: { groupOrder: 0 },
        },
      },
    ],
  },
});
