// `toolnexus-companion <command>`: the companion's command line, for agents' configs and scripts.
// Each command is imported when it runs: a permission hook must start fast (the agent waits on
// it), and it needs none of the MCP SDK, SQLite or the config readers the other commands load.
// Help, --version and a closed output pipe are handled here, once, for every command.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { packageRoot } from "../base/package-root";
import { wantsHelp } from "./args";
import { complainer, endQuietlyOnClosedPipe, errText, out, outText } from "./print";
import { START_USAGE } from "./start";

/** What a command module gives the table: its usage (else the table's summary) and its runner. */
export interface CommandRunner {
  usage?: string;
  run(args: string[]): Promise<number>;
}

export interface Command {
  /** Its lines in the top-level usage. */
  summary: string;
  /** Subcommands, for `toolnexus-companion <command> <sub> --help` and tests. */
  subcommands: string[];
  /** Keeps running (the companion itself): a closed output pipe does not end it. */
  longRunning?: boolean;
  load(roots: Roots): Promise<CommandRunner>;
}

/** What only the composition root may hand the CLI: the companion itself, for `start`. */
export interface Roots {
  start?: () => Promise<(args: string[]) => Promise<number>>;
}

async function startRunner(roots: Roots): Promise<CommandRunner> {
  if (!roots.start) throw new Error("this launcher cannot start the companion; run bin/toolnexus-companion start");
  return { usage: START_USAGE, run: await roots.start() };
}

export const COMMANDS: Record<string, Command> = {
  agents: {
    summary: `  agents list [--json]    The agents on this machine and whether each is connected.
  agents connect|disconnect AGENT [--dry-run] [--hooks] [--project DIR]
                          Add or remove the companion in an agent's own config (and, with
                          --hooks, its permission hook); a backup first, comments kept.`,
    subcommands: ["list", "connect", "disconnect"],
    load: async () => {
      const m = await import("./agents");
      return { usage: m.AGENTS_USAGE, run: m.runAgents };
    },
  },
  connect: {
    summary: `  connect [--agent NAME]  Bridge stdio to the companion's MCP gateway (for clients that only
                          launch stdio servers). Token from TOOLNEXUS_COMPANION_TOKEN or the
                          keychain; URL from TOOLNEXUS_COMPANION_URL (default http://127.0.0.1:7315).
                          --agent: call as that agent, with its own credential.`,
    subcommands: [],
    load: async () => ({ run: (await import("./connect")).runConnect }),
  },
  history: {
    summary: `  history [--json] [--since 7d] [--limit N] [--search WORDS] [--db PATH]
                          The questions asked and how each ended (from the history file).`,
    subcommands: [],
    load: async () => {
      const m = await import("./history");
      return { usage: m.HISTORY_USAGE, run: m.runHistory };
    },
  },
  hook: {
    summary: `  hook claude-code|codex  An agent's PermissionRequest hook: asks in the companion, prints the
                          decision; no verdict (the agent asks itself) when it cannot.`,
    subcommands: ["claude-code", "codex"],
    load: async () => {
      const m = await import("./hook");
      return { usage: m.HOOK_USAGE, run: m.runHook };
    },
  },
  rules: {
    summary: `  rules list [--json]     The rules you keep ("Always answer this way … until removed").
  rules remove ID         Remove one of them (the running app stops using it at once).`,
    subcommands: ["list", "remove"],
    load: async () => {
      const m = await import("./rules");
      return { usage: m.RULES_USAGE, run: m.runRules };
    },
  },
  secret: {
    summary: `  secret set NAME         Store a secret (the value is read from stdin) for \${secret:NAME} in headers.
  secret delete NAME      Remove a secret.
  secret list             List secret names (never values).`,
    subcommands: ["set", "delete", "list"],
    load: async () => {
      const m = await import("./secret");
      return { usage: m.SECRET_USAGE, run: m.runSecret };
    },
  },
  servers: {
    summary: `  servers list [--json]   The companion's configured servers.
  servers import [--from CLIENT|FILE] [--dry-run] [--json]
                          Add the servers other clients (Claude, Cursor, VS Code, Windsurf, Zed,
                          opencode, Codex, Gemini CLI) already run; --config PATH for another config.
  servers add|edit NAME (--command CMD [--arg A]... | --url URL) [--env K=V]... [--header K=V]...
  servers enable|disable|remove NAME
                          Edit the companion's config (comments and other keys kept); the
                          running app applies the change within a second or two.`,
    subcommands: ["list", "import", "add", "edit", "enable", "disable", "remove"],
    load: async () => {
      const m = await import("./servers");
      return { usage: m.SERVERS_USAGE, run: m.runServers };
    },
  },
  tasks: {
    summary: `  tasks list [--json]     Work servers run in the background for calls (MCP tasks): running
                          ones with their progress, then the recently ended.
  tasks cancel ID         Cancel a running task (the running app asks its server).`,
    subcommands: ["list", "cancel"],
    load: async () => {
      const m = await import("./tasks");
      return { usage: m.TASKS_USAGE, run: m.runTasks };
    },
  },
  start: {
    summary: `  start [--config PATH] [--port N]
                          Run the companion here, without the desktop shell: the gateway for
                          agents and its page for a browser (alias: serve). Ctrl-C stops it.`,
    subcommands: [],
    longRunning: true,
    load: startRunner,
  },
  token: {
    summary: `  token [--agent NAME]    Print the gateway token, for pasting into an agent's config;
                          with --agent, that agent's own credential (derived from the token).`,
    subcommands: [],
    load: async () => ({ run: (await import("./token")).runToken }),
  },
};

/** Other names of a command. */
const ALIASES: Record<string, string> = { serve: "start" };

export const USAGE = `Usage: toolnexus-companion <command> [--help]

${Object.values(COMMANDS).map((c) => c.summary).join("\n")}

  --help, -h              This text; after a command, that command's usage.
  --version, -v           The companion's version.
`;

/** The version in this checkout's (or package's) package.json. */
function companionVersion(): string {
  // From the install folder, not a path relative to this file, which means another folder once bundled.
  const root = packageRoot();
  const pkg = root ? (JSON.parse(readFileSync(join(root, "package.json"), "utf8")) as { version?: unknown }) : {};
  return typeof pkg.version === "string" ? pkg.version : "unknown";
}

export async function main(argv: string[], roots: Roots = {}): Promise<number> {
  try {
    return await run(argv, roots);
  } catch (error) {
    // A full disk, a read-only file system, a permission: one sentence, not a stack trace.
    const sentence = (await import("../base/fs-errors")).fileErrorSentence(error);
    if (!sentence) throw error;
    errText(`toolnexus-companion: ${sentence}\n`);
    return 1;
  }
}

async function run(argv: string[], roots: Roots): Promise<number> {
  const [given, ...rest] = argv;
  const name = given !== undefined ? (ALIASES[given] ?? given) : undefined;
  const command = name !== undefined && Object.hasOwn(COMMANDS, name) ? COMMANDS[name] : undefined;
  endQuietlyOnClosedPipe({ keepRunning: command?.longRunning === true });
  if (given === undefined) return (errText(USAGE), 2);
  if (given === "help" || given === "--help" || given === "-h") return (outText(USAGE), 0);
  if (given === "--version" || given === "-v") return (out(companionVersion()), 0);
  if (!command) return (complainer()(`unknown command "${given}"\n\n${USAGE}`), 2);
  const runner = await command.load(roots);
  const usage = runner.usage ?? `Usage:\n${command.summary.replace(/^ {2}(?=\S)/gm, "  toolnexus-companion ")}\n`;
  // `servers help`, `agents help`: the word works where a command has subcommands.
  if (wantsHelp(rest) || (command.subcommands.length > 0 && rest[0] === "help")) return (outText(usage), 0);
  return runner.run(rest);
}
