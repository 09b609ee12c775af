// Builds bench/gateway.ts into out/bench/gateway.mjs, so the gateway is measured as the app ships
// it (bundled, plain `node`), not under tsx. Run: node bench/bundle-gateway.mjs && node out/bench/gateway.mjs
import { bundleBench } from "./lib/bundle.mjs";

await bundleBench("gateway");
