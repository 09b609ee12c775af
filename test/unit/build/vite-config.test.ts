// `npm run serve` and `npm start` build the page with `vite build --logLevel warn`; what Vite warns
// about there is printed to every person who starts the companion. Loading the config the way that
// build does warns about nothing, and the build does not report plugin timings (the Svelte compiler
// is simply most of a build on a busy machine; that advice is for plugin authors).
import { fileURLToPath } from "node:url";
import { createLogger, loadConfigFromFile } from "vite";
import { describe, expect, it } from "vitest";

const ROOT = fileURLToPath(new URL("../../..", import.meta.url));

describe("vite.config.ts", () => {
  it("loads without a warning and turns Rolldown's timing report off", { timeout: 30_000 }, async () => {
    const warnings: string[] = [];
    const logger = createLogger("warn");
    logger.warn = (message) => void warnings.push(message);
    logger.warnOnce = (message) => void warnings.push(message);
    const loaded = await loadConfigFromFile({ command: "build", mode: "production" }, undefined, ROOT, "warn", logger);
    expect(warnings).toEqual([]);
    expect(loaded?.config.build?.rolldownOptions?.checks).toMatchObject({ bundlerTimings: false });
  });
});
