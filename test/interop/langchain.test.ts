// @langchain/mcp-adapters (with @langchain/core and @langchain/langgraph) as an agent through the
// companion's gateway. Run under Node 22 like the others, though it accepts Node 20.
import { interopSuite } from "./suite";

interopSuite({
  library: "@langchain/mcp-adapters 1.1.4",
  script: "langchain.mjs",
  clientName: "@langchain/mcp-adapters",
  // No elicitation, sampling or roots handlers (the client has no capabilities); no prompts or
  // completions in its API.
  can: { elicitation: false, urlElicitation: false, inputRequired: false, sampling: false, roots: false, progress: true, logs: true, resources: true, prompts: false, completions: false },
});
