// `toolnexus-companion <command>`: the companion's command line, for agents' configs and scripts.
// Each command is imported when it runs: a permission hook must start fast (the agent waits on
// it), and it needs none of the MCP SDK, SQLite or the config readers the other commands load.

const USAGE = `Usage: toolnexus-companion <command>

  agents list [--json]    The agents on this machine and whether each is connected.
  agents connect|disconnect AGENT [--dry-run] [--hooks] [--project DIR]
                          Add or remove the companion in an agent's own config (and, with
                          --hooks, its permission hook); a backup first, comments kept.
  connect                 Bridge stdio to the companion's MCP gateway (for clients that only
                          launch stdio servers). Token from TOOLNEXUS_COMPANION_TOKEN or the
                          keychain; URL from TOOLNEXUS_COMPANION_URL (default http://127.0.0.1:7315).
  history [--json] [--since 7d] [--limit N] [--search WORDS] [--db PATH]
                          The questions asked and how each ended (from the history file).
  hook claude-code|codex  An agent's PermissionRequest hook: asks in the companion, prints the
                          decision; no verdict (the agent asks itself) when it cannot.
  rules list [--json]     The rules you keep ("Always answer this way … until removed").
  rules remove ID         Remove one of them (the running app stops using it at once).
  secret set NAME         Store a secret (the value is read from stdin) for \${secret:NAME} in headers.
  secret delete NAME      Remove a secret.
  secret list             List secret names (never values).
  servers list [--json]   The companion's configured servers.
  servers import [--from CLIENT|FILE] [--dry-run] [--json]
                          Add the servers other clients (Claude, Cursor, VS Code, Windsurf, Zed,
                          opencode, Codex, Gemini CLI) already run; --config PATH for another config.
  servers add|edit NAME (--command CMD [--arg=A]... | --url URL) [--env K=V]... [--header K=V]...
  servers enable|disable|remove NAME
                          Edit the companion's config (comments and other keys kept); the
                          running app applies the change within a second or two.
  token                   Print the gateway token, for pasting into an agent's config.
`;

export async function main(argv: string[]): Promise<number> {
  try {
    return await run(argv);
  } catch (error) {
    // A full disk, a read-only file system, a permission: one sentence, not a stack trace.
    const sentence = (await import("../base/fs-errors")).fileErrorSentence(error);
    if (!sentence) throw error;
    process.stderr.write(`toolnexus-companion: ${sentence}\n`);
    return 1;
  }
}

async function run(argv: string[]): Promise<number> {
  const [command, ...rest] = argv;
  switch (command) {
    case "agents":
      return (await import("./agents")).runAgents(rest);
    case "connect":
      return (await import("./connect")).runConnect(rest);
    case "hook":
      return (await import("./hook")).runHook(rest);
    case "history":
      return (await import("./history")).runHistory(rest);
    case "rules":
      return (await import("./rules")).runRules(rest);
    case "secret":
      return (await import("./secret")).runSecret(rest);
    case "servers":
      return (await import("./servers")).runServers(rest);
    case "token":
      return (await import("./token")).runToken(rest);
    case "help":
    case "--help":
    case "-h":
      process.stdout.write(USAGE);
      return 0;
    default:
      process.stderr.write(command ? `toolnexus-companion: unknown command "${command}"\n\n${USAGE}` : USAGE);
      return 2;
  }
}
