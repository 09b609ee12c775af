// Claude Code (code.claude.com/docs/en/mcp): user-scope servers in ~/.claude.json `mcpServers`
// ($CLAUDE_CONFIG_DIR moves it), project-scope servers in <project>/.mcp.json. Default: the stdio
// `connect` shim (token from the keychain). `--via http` writes `Authorization: Bearer
// ${TOOLNEXUS_COMPANION_TOKEN}`, which Claude Code expands from its environment — but several
// releases sent `${VAR}` in headers unexpanded (anthropics/claude-code#6204, #51581), one more
// reason the shim is the default.
import { shim, TOKEN_ENV } from "./connect-form";
import { join } from "./paths";
import { jsonWriter } from "./writer";

export const claudeCodeWriter = jsonWriter({
  id: "claude-code",
  label: "Claude Code",
  docs: "https://code.claude.com/docs/en/mcp",
  defaultVia: "shim",
  http: "env",
  homes: (machine) => [machine.env.CLAUDE_CONFIG_DIR || join(machine, machine.home, ".claude"), join(machine, machine.home, ".claude.json")],
  files: (machine, project) =>
    project
      ? [join(machine, project, ".mcp.json")]
      : [machine.env.CLAUDE_CONFIG_DIR ? join(machine, machine.env.CLAUDE_CONFIG_DIR, ".claude.json") : join(machine, machine.home, ".claude.json")],
  servers: () => ["mcpServers"],
  entry: (options) =>
    options.via === "http"
      ? { type: "http", url: options.gatewayUrl, headers: { Authorization: `Bearer \${${TOKEN_ENV}}` } }
      : { type: "stdio", ...shim(options) },
});
