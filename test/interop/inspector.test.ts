// @modelcontextprotocol/inspector-cli as an agent through the companion's gateway: one CLI process
// per op, so its latencies include a connect each time, through the gateway and directly alike.
import { interopSuite } from "./suite";

interopSuite({
  library: "@modelcontextprotocol/inspector-cli 1.0.3",
  script: "inspector.mjs",
  clientName: "inspector-cli",
  // A Node 22 process per op (2-5 s each on this shared machine): compare the MCP Apps server's
  // tools and resources (server-everything's prompts, the 2026-07-28 server in the elicitation
  // tests); the other libraries compare every server.
  compare: ["apps"],
  can: { elicitation: false, urlElicitation: false, inputRequired: false, sampling: false, roots: false, progress: false, logs: false, resources: true, prompts: true, completions: false },
});
