// `toolnexus-companion agents list|connect|disconnect`: put the companion's entry (and, for Claude
// Code and Codex, its permission hook) into an agent's own config, or take it out. Each file that
// changes is backed up first; comments, order and other keys stay; --dry-run shows the diff only.
import { homedir } from "node:os";
import { parseArgs } from "node:util";
import { cliCommand } from "../client-configs/cli-command";
import { apply, changes, diff, listAgents, plan, type AgentStatus, type FileChange } from "../client-configs/agents";
import { DEFAULT_COMPANION_URL, gatewayUrl, TOKEN_ENV, TOKEN_INPUT_ID, type ConnectOptions, type Via } from "../client-configs/connect-form";
import { currentMachine } from "../client-configs";
import { EditError } from "../client-configs/json-edit";
import type { ClientWriter } from "../client-configs/writer";
import { WRITERS, writerById } from "../client-configs/writers";
import { complainer, errText, field, out, outJson } from "./print";
import { resolveToken } from "./resolve-token";

const NAMES = WRITERS.map((w) => w.id).join(", ");
export const AGENTS_USAGE = `Usage:
  toolnexus-companion agents list [--json] [--project DIR]
  toolnexus-companion agents connect AGENT [--dry-run] [--hooks] [--project DIR] [--via shim|http] [--literal-token]
  toolnexus-companion agents disconnect AGENT [--dry-run] [--hooks] [--project DIR]

  AGENT: ${NAMES}.
  connect adds a "toolnexus" entry to the agent's own config: the stdio \`connect\` shim (it reads
  the gateway token from the keychain), or for VS Code an HTTP entry whose token VS Code asks for
  once and keeps in its secret storage. --via http uses the gateway URL with the token taken from
  $${TOKEN_ENV} where the agent expands variables; where it cannot, the token would be written in
  plain text and --literal-token must say so. --hooks also installs (disconnect: removes) the
  PermissionRequest hook of Claude Code or Codex. --project DIR edits that project's files instead
  of the user's. A file that changes is copied to FILE.bak-<time> first; --dry-run writes nothing.
`;

const err = complainer("agents");

function tilde(path: string): string {
  const home = homedir();
  return home && path.startsWith(`${home}/`) ? `~${path.slice(home.length)}` : path;
}

function connectOptions(via: Via, literalToken?: string): ConnectOptions {
  const override = process.env.TOOLNEXUS_COMPANION_URL;
  return {
    via,
    cli: cliCommand(),
    gatewayUrl: gatewayUrl(override || DEFAULT_COMPANION_URL),
    ...(override ? { companionUrl: override } : {}),
    ...(literalToken ? { literalToken } : {}),
  };
}

function describeForm(writer: ClientWriter, via: Via): string {
  if (via === "shim") return "the stdio `connect` shim, which reads the gateway token from the keychain";
  if (writer.http === "input") return `HTTP; ${writer.label} asks for the token once (input "${TOKEN_INPUT_ID}"; \`toolnexus-companion token\` prints it) and keeps it in its secret storage`;
  if (writer.http === "env") return `HTTP, token from $${TOKEN_ENV} — set it where ${writer.label} runs: export ${TOKEN_ENV}="$(toolnexus-companion token)"`;
  return "HTTP with the gateway token written in plain text (rotating it in Settings locks this entry out)";
}

// ---- list ------------------------------------------------------------------------------------

function printList(statuses: AgentStatus[]): void {
  for (const s of statuses) {
    const state = s.connections.length > 0 ? "connected" : s.found ? "not connected" : "not found";
    out(`${s.connections.length > 0 ? "●" : "○"} ${s.label} (${s.id})  ${state}`);
    for (const c of s.connections) out(`    ${tilde(c.file)}${c.scope !== "user" ? ` (${c.scope})` : ""}: "${field(c.name)}"`);
    for (const c of s.stale) out(`    ${tilde(c.file)}: "toolnexus" does not point at this companion; \`agents connect ${s.id}\` updates it`);
    if (s.hook) out(`    permission hook: ${s.hook.installed.length > 0 ? s.hook.installed.map(tilde).join(", ") : "not installed (connect --hooks)"}`);
    for (const e of s.errors) out(`    ! ${e}`);
  }
}

async function list(args: string[]): Promise<number> {
  const { values } = parseArgs({ args, options: { json: { type: "boolean" }, project: { type: "string" } }, strict: true });
  const machine = currentMachine(values.project ?? process.cwd());
  const statuses = await listAgents(machine, connectOptions("shim").gatewayUrl);
  if (values.json) outJson(statuses, 2);
  else printList(statuses);
  return 0;
}

// ---- connect / disconnect --------------------------------------------------------------------

async function change(args: string[], connect: boolean): Promise<number> {
  const { values, positionals } = parseArgs({
    args,
    allowPositionals: true,
    options: {
      "dry-run": { type: "boolean" },
      hooks: { type: "boolean" },
      project: { type: "string" },
      ...(connect ? { via: { type: "string" }, "literal-token": { type: "boolean" } } : {}),
    },
    strict: true,
  });
  if (positionals.length !== 1) return (err(`which agent? (${NAMES})\n\n${AGENTS_USAGE}`), 2);
  const writer = writerById(positionals[0]);
  if (!writer) return (err(`unknown agent "${positionals[0]}" (${NAMES})`), 2);
  const via = ((values as { via?: string }).via ?? writer.defaultVia) as Via;
  if (via !== "shim" && via !== "http") return (err(`--via is "shim" or "http", not "${via}"`), 2);
  const literal = (values as { "literal-token"?: boolean })["literal-token"] === true;
  if (connect && via === "http" && writer.http === "none") {
    return (err(`${writer.label}'s config file holds only local (stdio) servers; use the default (the \`connect\` shim).`), 2);
  }
  if (connect && via === "http" && writer.http === "literal" && !literal) {
    err(`${writer.label} expands no variables in its settings, so over HTTP the gateway token would be written in plain text.`);
    err(`The default, the \`connect\` shim, keeps it in the keychain. To write the token anyway: --via http --literal-token`);
    return 2;
  }
  if (literal && !(via === "http" && writer.http === "literal")) {
    return (err(`--literal-token is only for an HTTP entry in an agent that cannot refer to a secret (Zed); ${writer.label} does not need it here.`), 2);
  }
  let token: string | undefined;
  if (literal) {
    const resolved = await resolveToken();
    if (!resolved.token) return (err(`no gateway token: ${resolved.why}`), 1);
    token = resolved.token;
  }

  const machine = currentMachine(values.project ?? process.cwd());
  const options = { project: values.project, hooks: values.hooks === true, connect: connectOptions(via, token) };
  let planned: FileChange[];
  try {
    planned = await plan(writer, machine, options, connect);
  } catch (error) {
    if (error instanceof EditError) return (err(`${writer.label}: ${error.message}`), 1);
    throw error;
  }
  const dryRun = values["dry-run"] === true;
  const todo = changes(planned);
  for (const c of planned) {
    const changing = todo.includes(c);
    const how = c.what === "server" && connect && changing ? ` — ${describeForm(writer, via)}` : "";
    out(`${writer.label}: ${tilde(c.file)}: ${c.note}${how}`);
    if (!changing) continue;
    if (dryRun) {
      out(diff(c).trimEnd());
      continue;
    }
    try {
      const { backup } = await apply(c);
      if (backup) out(`  backup: ${tilde(backup)}`);
    } catch (error) {
      if (error instanceof EditError) return (err(error.message), 1);
      throw error;
    }
  }
  if (dryRun) out(todo.length > 0 ? "Dry run: nothing was written." : "Nothing to change.");
  else if (todo.length === 0) out(connect ? `${writer.label} is already connected; nothing changed.` : `Nothing to remove from ${writer.label}.`);
  else if (connect) {
    out(`Restart ${writer.label} (or reload its MCP servers) to pick it up.`);
    if (values.hooks && writer.id === "codex") out("Codex runs a new hook only after you review and trust it: open /hooks in Codex.");
  }
  if (!connect && !values.hooks) {
    const hooked = (await listAgents(machine, options.connect.gatewayUrl)).find((s) => s.id === writer.id)?.hook?.installed ?? [];
    if (hooked.length > 0) out(`The permission hook is still installed (${hooked.map(tilde).join(", ")}); \`disconnect ${writer.id} --hooks\` removes it.`);
  }
  return 0;
}

export async function runAgents(args: string[]): Promise<number> {
  const [sub, ...rest] = args;
  try {
    if (sub === "list") return await list(rest);
    if (sub === "connect") return await change(rest, true);
    if (sub === "disconnect") return await change(rest, false);
  } catch (error) {
    if ((error as { code?: string }).code?.startsWith("ERR_PARSE_ARGS")) return (err(`${(error as Error).message}\n\n${AGENTS_USAGE}`), 2);
    throw error;
  }
  if (sub) err(`unknown subcommand "${sub}"\n\n${AGENTS_USAGE}`);
  else errText(AGENTS_USAGE);
  return 2;
}
