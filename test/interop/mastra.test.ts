// @mastra/mcp (with its peer @mastra/core) as an agent through the companion's gateway (Node 22:
// both declare engines >= 22.13).
import { interopSuite } from "./suite";

interopSuite({
  library: "@mastra/mcp 2.0.0",
  script: "mastra.mjs",
  clientName: "interop-mastra",
  // It probes with server/discover, so the gateway serves it 2026-07-28.
  gatewayEra: "2026-07-28",
  // logs: Mastra never sends logging/setLevel on a 2025-11-25 session and has no call for it,
  // and the gateway passes a server's logs on only after one; directly, fastmcp sends its logs
  // unasked. So a Mastra agent gets no server logs through the companion (see the README).
  can: { elicitation: true, urlElicitation: true, inputRequired: true, sampling: false, roots: false, progress: true, logs: false, resources: true, prompts: true, completions: false },
});
