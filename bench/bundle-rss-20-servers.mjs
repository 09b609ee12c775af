// Builds bench/rss-20-servers.ts into out/bench/rss-20-servers.mjs: the core's memory is measured
// as the app ships it (bundled, plain `node`; tsx's loader and esbuild service would count against
// it). Run: node bench/bundle-rss-20-servers.mjs && node out/bench/rss-20-servers.mjs
import { bundleBench } from "./lib/bundle.mjs";

await bundleBench("rss-20-servers");
