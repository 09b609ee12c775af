// @ai-sdk/mcp as an agent through the companion's gateway (Node 22: it declares engines >= 22).
import { interopSuite } from "./suite";

interopSuite({
  library: "@ai-sdk/mcp 2.0.99",
  script: "ai-sdk.mjs",
  clientName: "interop-ai-sdk",
  // It probes with server/discover, so the gateway serves it 2026-07-28.
  gatewayEra: "2026-07-28",
  // No sampling, roots, progress or log callbacks in its API. It advertises URL mode when asked
  // to, then rejects every URL-mode elicitation for lacking requestedSchema (which URL mode has not).
  urlElicitationBug: /-32602: Invalid elicitation request[\s\S]*requestedSchema/,
  can: { elicitation: true, urlElicitation: false, inputRequired: true, sampling: false, roots: false, progress: false, logs: false, resources: true, prompts: true, completions: true },
});
