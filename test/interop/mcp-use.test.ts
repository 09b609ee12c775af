// The mcp-use client (MCPClient, mcp-use 1.34 as mcp-use-client) as an agent through the
// companion's gateway, under Node 22 like the others.
import { interopSuite } from "./suite";

interopSuite({
  library: "mcp-use 1.34.6 (MCPClient)",
  script: "mcp-use.mjs",
  clientName: "interop-mcp-use",
  can: { elicitation: true, urlElicitation: true, inputRequired: false, sampling: true, roots: true, progress: true, logs: true, resources: true, prompts: true, completions: true },
});
