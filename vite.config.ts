// Builds the renderer (src/renderer) into out/renderer. The relative base lets Electron load it
// from file:// and browser mode serve it over http from the same files.
import { fileURLToPath } from "node:url";
import { defineConfig, type Plugin } from "vite";
import { svelte } from "@sveltejs/vite-plugin-svelte";
// With its extension: Vite loads this file natively in a coming major version, and it warns on
// every build about an import that such a loader could not resolve.
import { PAGE_CSP } from "./src/shared/csp.ts";

const root = fileURLToPath(new URL("./src/renderer", import.meta.url));
const outDir = fileURLToPath(new URL("./out/renderer", import.meta.url));

/** The page's one Content-Security-Policy (src/shared/csp.ts), written into index.html as a meta tag. */
export const CSP = PAGE_CSP;

// Only in the build: the dev server injects inline styles and its client, which CSP would block.
function cspMeta(): Plugin {
  return {
    name: "companion-csp",
    apply: "build",
    transformIndexHtml: {
      order: "post",
      handler: () => [
        { tag: "meta", attrs: { "http-equiv": "Content-Security-Policy", content: CSP }, injectTo: "head-prepend" },
      ],
    },
  };
}

export default defineConfig({
  root,
  base: "./",
  plugins: [svelte({ configFile: false }), cspMeta()],
  build: {
    outDir,
    emptyOutDir: true,
    target: "es2022",
    // One entry, no lazy chunks: the polyfill would be dead weight.
    modulePreload: { polyfill: false },
    reportCompressedSize: false,
    // The Svelte compiler takes most of a build's time, and on a busy machine Rolldown says so on
    // every build; that is advice for plugin authors, not news for whoever runs `npm run serve`.
    rolldownOptions: { checks: { bundlerTimings: false } },
  },
});
