// @modelcontextprotocol/sdk (v1 client) as an agent through the companion's gateway.
import { interopSuite } from "./suite";

interopSuite({
  library: "@modelcontextprotocol/sdk 1.x",
  script: "sdk-v1.mjs",
  clientName: "interop-sdk-v1",
  can: { elicitation: true, urlElicitation: true, inputRequired: false, sampling: true, roots: true, progress: true, logs: true, resources: true, prompts: true, completions: true },
});
