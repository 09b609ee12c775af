// `toolnexus-companion servers list|import`: the companion's configured servers, and bringing in
// the servers a person already set up in other clients. Import only ever writes the companion's
// own config (atomically, keeping its comments, unknown keys and servers); --dry-run writes nothing.
import { homedir } from "node:os";
import { parseArgs } from "node:util";
import { currentMachine, type FileReport } from "../client-configs";
import { buildImport, defaultPick, ImportRefused, readCompanion, typeOf, writeImport } from "../client-configs/import-plan";
import { openSecretStore } from "../secrets";
import type { ImportPlan, PlannedServer } from "../client-configs/plan";
import type { Source } from "../client-configs/types";
import { resolveConfigPath } from "../mcp/config/file";
import { parseConfig, rawServerMap } from "../mcp/config/parse";
import { terminalJson } from "../base/terminal-text";
import { complainer, errText, field, out, outJson } from "./print";
import { EDIT_USAGE, runServerEdit } from "./servers-edit";

export const SERVERS_USAGE = `Usage:
  toolnexus-companion servers list [--json] [--config PATH]
  toolnexus-companion servers import [--from CLIENT|FILE] [--dry-run] [--json] [--config PATH] [--project DIR]
                                    [--include-untrusted NAME]... [--keep-literal-secrets]
${EDIT_USAGE}
  import reads Claude Desktop, Claude Code, Cursor, VS Code, Windsurf, Zed, opencode, Codex and
  Gemini CLI (all of them, or the one --from names; --from may also be a file) and adds their
  servers to the companion's config. --project is the folder whose project files are read
  (.mcp.json, .vscode/mcp.json, …); default: the current folder. A project server its client
  does not trust (or that was disabled there) is listed, not imported, unless named with
  --include-untrusted. Secrets written inline in an entry's env or headers are moved into the
  keychain and written as \${secret:NAME}, unless --keep-literal-secrets.
  Config: --config, else TOOLNEXUS_CONFIG, else $XDG_CONFIG_HOME/toolnexus-companion/mcp.json.
`;

const err = complainer("servers");

function tilde(path: string): string {
  const home = homedir();
  return home && path.startsWith(`${home}/`) ? `~${path.slice(home.length)}` : path;
}

function commandLine(entry: { command?: string; args?: string[]; url?: string }): string {
  if (entry.url) return field(entry.url);
  // A part with white space (or any control, which would not show) is quoted, escapes visible.
  // eslint-disable-next-line no-control-regex
  return [entry.command, ...(entry.args ?? [])].map((p) => (p && /[\s\u0000-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/.test(p) ? terminalJson(p) : (p ?? ""))).join(" ");
}

// ---- list ------------------------------------------------------------------------------------

async function list(args: string[]): Promise<number> {
  const { values } = parseArgs({ args, options: { json: { type: "boolean" }, config: { type: "string", short: "c" } }, strict: true });
  const path = resolveConfigPath(values.config);
  const read = await readCompanion(path);
  if ("error" in read) return (err(read.error), 1);
  let parsed;
  let raw: Record<string, unknown>;
  try {
    parsed = parseConfig(read.value, { expand: false });
    raw = rawServerMap(read.value);
  } catch (error) {
    return (err(`${path}: ${(error as Error).message}`), 1);
  }
  const own: Source[] = [{ client: "toolnexus-companion" as Source["client"], file: path }];
  const fromOf = (name: string): Source[] => {
    const entry = raw[name] as { importedFrom?: unknown } | undefined;
    return Array.isArray(entry?.importedFrom) ? (entry.importedFrom as Source[]) : own;
  };
  const rows = [
    ...parsed.servers.map((s) => ({
      name: s.name,
      type: s.type,
      ...(s.type === "local" ? { command: s.command, args: s.args } : { url: s.url, transport: s.transport }),
      enabled: s.enabled,
      from: fromOf(s.name),
    })),
    ...parsed.invalid.map((i) => ({ name: i.name, type: null, error: i.error, from: fromOf(i.name) })),
    ...parsed.skipped.map((s) => ({ name: s.name, type: null, skipped: s.reason, from: own })),
  ];
  if (values.json) return (outJson(rows, 2), 0);
  if (rows.length === 0) {
    out(`No servers configured in ${tilde(path)}.`);
    out("Bring the ones you already use: toolnexus-companion servers import --dry-run");
    return 0;
  }
  out(`${tilde(path)}:`);
  for (const row of rows) {
    if ("error" in row) out(`  ! ${field(row.name)}  ${field(row.error)}`);
    else if ("skipped" in row) out(`  - ${field(row.name)}  skipped: ${field(row.skipped)}`);
    else out(`  ${row.enabled ? "•" : "○"} ${field(row.name)}  ${row.type}  ${commandLine(row as { command?: string; args?: string[]; url?: string })}${row.enabled ? "" : "  (disabled)"}`);
  }
  return 0;
}

// ---- import ----------------------------------------------------------------------------------

function serverJson(s: PlannedServer) {
  return {
    name: s.name,
    type: typeOf(s.entry),
    ...(s.entry.url ? { url: s.entry.url, transport: s.entry.type } : { command: s.entry.command, args: s.entry.args ?? [] }),
    action: s.action,
    ...(s.clientName ? { clientName: s.clientName } : {}),
    ...(s.entry.disabled ? { disabled: true } : {}),
    ...(s.entry.inputs ? { inputs: s.entry.inputs } : {}),
    from: s.from,
  };
}

function describeSource(s: Source, labels: Map<string, string>): string {
  const scope = s.scope && s.scope !== "user" && s.scope !== "file" ? `, ${s.scope}` : "";
  return field(`${labels.get(s.client) ?? s.client} (${tilde(s.file)}${scope})`);
}

function printPlan(plan: ImportPlan, reports: FileReport[], path: string, dryRun: boolean, pick: ReadonlySet<string>, keepLiteral: boolean): void {
  const labels = new Map(reports.map((r) => [r.client, r.label]));
  const files = reports.filter((r) => r.servers.length + r.skipped.length > 0 || r.error);
  if (files.length === 0) {
    out("No other client's MCP servers were found on this machine.");
    return;
  }
  out(`Read ${files.length} file${files.length === 1 ? "" : "s"}: ${[...new Set(files.map((r) => r.label))].join(", ")}.`);
  for (const s of plan.servers) {
    const held = s.action === "add" && !pick.has(s.name);
    const mark = held ? "?" : s.action === "add" ? "+" : "=";
    const note = s.action === "unchanged" ? "  (already configured)" : s.clientName ? `  (named "${field(s.clientName)}" in ${labels.get(s.from[0].client)}; renamed to keep it apart)` : "";
    out(`  ${mark} ${field(s.name)}  ${typeOf(s.entry)}  ${commandLine(s.entry)}${s.entry.disabled ? "  (disabled)" : ""}${note}`);
    for (const source of s.from) out(`      from ${describeSource(source, labels)}`);
    if (s.untrusted) {
      out(`      ${held ? "not imported" : "imported as asked"}: ${field(s.untrusted)}`);
      if (s.entry.cwd) out(`      runs in ${field(s.entry.cwd)}`);
      if (held) out(`      to import it anyway: --include-untrusted ${field(s.name)}`);
    }
    if (s.action === "add" && !held) {
      for (const l of s.literals ?? []) out(keepLiteral ? `      ${l.field} ${field(l.key)} holds a secret in plain text; kept literal (--keep-literal-secrets)` : `      ${l.field} ${field(l.key)} holds a secret in plain text: moved into the keychain as \${secret:${l.secret}}`);
    }
    for (const input of s.entry.inputs ?? []) out(`      asks for input "${field(input.id)}"${input.description ? ` (${field(input.description)})` : ""}: it will not start until that is set`);
  }
  for (const s of plan.skipped) out(`  - ${field(s.name)}  not imported: ${field(s.reason)}\n      in ${describeSource(s.from, labels)}`);
  for (const e of plan.errors) out(`  ! ${field(e.error)}`);
  const adds = plan.servers.filter((s) => s.action === "add" && pick.has(s.name)).length;
  if (adds === 0) out(`Nothing to change in ${tilde(path)}.`);
  else if (dryRun) out(`Dry run: would add ${adds} server${adds === 1 ? "" : "s"} to ${tilde(path)}; nothing was written.`);
  else out(`Added ${adds} server${adds === 1 ? "" : "s"} to ${tilde(path)}.`);
}

async function runImport(args: string[]): Promise<number> {
  const { values } = parseArgs({
    args,
    options: {
      from: { type: "string" },
      "dry-run": { type: "boolean" },
      json: { type: "boolean" },
      config: { type: "string", short: "c" },
      project: { type: "string" },
      "include-untrusted": { type: "string", multiple: true },
      "keep-literal-secrets": { type: "boolean" },
    },
    strict: true,
  });
  const path = resolveConfigPath(values.config);
  const built = await buildImport(path, currentMachine(values.project ?? process.cwd()), values.from);
  if ("error" in built) return (err(built.error), 1);
  const { plan, reports } = built;
  const dryRun = values["dry-run"] === true;
  const include = new Set(values["include-untrusted"] ?? []);
  const notHeld = [...include].filter((n) => !plan.servers.some((s) => s.name === n && s.action === "add" && s.untrusted));
  if (notHeld.length > 0) return (err(`--include-untrusted ${notHeld.join(", ")}: no untrusted server of that name is offered (see --dry-run).`), 2);
  const pick = defaultPick(plan, include);
  const keepLiteral = values["keep-literal-secrets"] === true;
  if (!dryRun) {
    const moving = !keepLiteral && plan.servers.some((s) => pick.has(s.name) && s.literals?.length);
    try {
      await writeImport(built, pick, { keepLiteral: keepLiteral ? "all" : undefined, ...(moving ? { secrets: await openSecretStore() } : {}) });
    } catch (error) {
      if (error instanceof ImportRefused) return (err(error.message), 1);
      throw error;
    }
  }

  if (values.json) {
    const rows = [
      ...plan.servers.map((s) => ({ ...serverJson(s), ...(s.action === "add" && !pick.has(s.name) ? { action: "held", reason: s.untrusted } : {}) })),
      ...plan.skipped.map((s) => ({ name: s.name, type: null, action: "skipped", reason: s.reason, from: [s.from] })),
    ];
    outJson(rows, 2);
    for (const e of plan.errors) err(field(e.error));
  } else {
    printPlan(plan, reports, path, dryRun, pick, keepLiteral);
  }
  return values.from && plan.errors.length > 0 && plan.servers.length === 0 ? 1 : 0;
}

export async function runServers(args: string[]): Promise<number> {
  const [sub, ...rest] = args;
  try {
    if (sub === "list") return await list(rest);
    if (sub === "import") return await runImport(rest);
    const edited = await runServerEdit(sub, rest);
    if (edited !== undefined) return edited;
  } catch (error) {
    if ((error as { code?: string }).code?.startsWith("ERR_PARSE_ARGS")) return (err(`${(error as Error).message}\n\n${SERVERS_USAGE}`), 2);
    throw error;
  }
  if (sub) err(`unknown subcommand "${sub}"\n\n${SERVERS_USAGE}`);
  else errText(SERVERS_USAGE);
  return 2;
}
