// Builds bench/elicit-overhead.ts into out/bench/elicit-overhead.mjs: the elicitation path is
// measured as the app ships it (bundled, plain `node`). Run: node bench/bundle-elicit-overhead.mjs && node out/bench/elicit-overhead.mjs
import { bundleBench } from "./lib/bundle.mjs";

await bundleBench("elicit-overhead");
