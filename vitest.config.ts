import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    projects: [
      {
        test: {
          name: "node",
          environment: "node",
          include: ["test/unit/**/*.test.ts", "test/integration/**/*.test.ts", "test/e2e/**/*.test.ts", "test/conformance/**/*.test.ts"],
          testTimeout: 60_000,
          hookTimeout: 60_000,
          // Integration tests spawn real servers and browsers; two cores do not like many at once.
          maxWorkers: 2,
        },
      },
    ],
  },
});
