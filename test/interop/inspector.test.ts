// @modelcontextprotocol/inspector-cli as an agent through the companion's gateway: one CLI process
// per op, so its latencies include a connect each time, through the gateway and directly alike.
import { interopSuite } from "./suite";

interopSuite({
  library: "@modelcontextprotocol/inspector-cli 1.0.3",
  script: "inspector.mjs",
  clientName: "inspector-cli",
  // A Node 22 process per op (1-3 s each on this machine): compare one stdio server of the 2025
  // era and the MCP Apps one (the 2026-07-28 one is called in the elicitation tests).
  compare: ["everything", "apps"],
  can: { elicitation: false, urlElicitation: false, inputRequired: false, sampling: false, roots: false, progress: false, logs: false, resources: true, prompts: true, completions: false },
});
