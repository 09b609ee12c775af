// VS Code (code.visualstudio.com/docs/copilot/reference/mcp-configuration): the user profile's
// mcp.json (Code/User, or Code - Insiders/User when only that exists) or <workspace>/.vscode/mcp.json.
// Default: `type: http` with `Authorization: Bearer ${input:toolnexus-token}` and an `inputs` entry
// `{type: promptString, password: true}`: VS Code asks for the token once and keeps it in its
// secret storage, so nothing secret is in the file. `--via shim` writes the stdio shim instead.
import { shim, TOKEN_INPUT_ID } from "./connect-form";
import { appendAt, removeCandidates, valueAt } from "./json-edit";
import { appData, join } from "./paths";
import { jsonWriter, pruneEmpty } from "./writer";
import { isPlainObject } from "../../shared/unknown-value";

const INPUT = { type: "promptString", id: TOKEN_INPUT_ID, description: "Toolnexus Companion gateway token", password: true };

const inputIndex = (text: string): number => {
  const inputs = text.trim() === "" ? undefined : valueAt(text, ["inputs"]);
  return Array.isArray(inputs) ? inputs.findIndex((i) => isPlainObject(i) && i.id === TOKEN_INPUT_ID) : -1;
};

export const vscodeWriter = jsonWriter({
  id: "vscode",
  label: "VS Code",
  docs: "https://code.visualstudio.com/docs/copilot/reference/mcp-configuration",
  defaultVia: "http",
  http: "input",
  homes: (machine) => ["Code", "Code - Insiders"].map((e) => join(machine, appData(machine), e)),
  files: (machine, project) =>
    project ? [join(machine, project, ".vscode", "mcp.json")] : ["Code", "Code - Insiders"].map((e) => join(machine, appData(machine), e, "User", "mcp.json")),
  servers: () => ["servers"],
  entry: (options) =>
    options.via === "http"
      ? { type: "http", url: options.gatewayUrl, headers: { Authorization: `Bearer \${input:${TOKEN_INPUT_ID}}` } }
      : { type: "stdio", ...shim(options) },
  also: {
    connect(text, options) {
      if (options.via !== "http" || inputIndex(text) !== -1) return text;
      return appendAt(text, ["inputs"], INPUT);
    },
    disconnect(text) {
      const index = inputIndex(text);
      // Another server may still use the same input; then it stays.
      if (index === -1 || text.includes(`\${input:${TOKEN_INPUT_ID}}`)) return [text];
      return [...pruneEmpty(removeCandidates(text, ["inputs", index]), ["inputs"]), text];
    },
  },
});
