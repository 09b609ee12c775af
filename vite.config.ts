// Builds the renderer (src/renderer) into out/renderer. The relative base lets Electron load it
// from file:// and browser mode serve it over http from the same files.
import { fileURLToPath } from "node:url";
import { defineConfig, type Plugin } from "vite";
import { svelte } from "@sveltejs/vite-plugin-svelte";

const root = fileURLToPath(new URL("./src/renderer", import.meta.url));
const outDir = fileURLToPath(new URL("./out/renderer", import.meta.url));

/**
 * The page's Content-Security-Policy. Scripts and styles only from our own files; the browser
 * transport may open a WebSocket to the host that served the page. No inline script and no eval:
 * the page renders server-controlled text, so form validation (ajv, which compiles schemas with
 * `new Function`) runs in main and the page asks for verdicts over the forms:check channel.
 */
export const CSP = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data:",
  "connect-src 'self' ws: wss:",
  "object-src 'none'",
  "base-uri 'none'",
  "form-action 'none'",
].join("; ");

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
  },
});
