// The Agents view's channels (agents:list, agents:plan, agents:apply): the same planning and
// writing as `toolnexus-companion agents`, with the change shown before anything is written.
// A plan carries a fingerprint of the exact edits; apply re-plans and writes only when it matches,
// so what the person saw is what gets written (or nothing, if a file moved on in between).
import { createHash } from "node:crypto";
import { isAbsolute } from "node:path";
import { readFile } from "node:fs/promises";
import type {
  AgentFileChange,
  AgentsApplyArg,
  AgentsApplyResult,
  AgentsInvokeMap,
  AgentsLongWaitsArg,
  AgentsPlan,
  AgentsPlanArg,
  AgentView,
  AgentVia,
  TokenKept,
} from "../../shared/agents";
import type { HandlerMap } from "../../shared/contract";
import { apply, changes, diff, listAgents, plan, type FileChange } from "./agents";
import { currentMachine } from "./";
import { DEFAULT_COMPANION_URL, gatewayUrl, TOKEN_ENV, TOKEN_INPUT_ID, type ConnectOptions } from "./connect-form";
import { EditError } from "./json-edit";
import type { Machine } from "./types";
import type { ClientWriter } from "./writer";
import { writerById } from "./writers";
import { ArgumentError, HandlerError } from "../rpc/envelope";
import { defineHandlers } from "../rpc/handlers";
import { booleanField, noArg, objectArg, stringField } from "../rpc/validate";
import { longWaitDeadline, readLongWaits, setLongWait } from "../mcp/config/long-waits";
import { ConfigEditError, editConfigFile } from "../mcp/config/edit";
import { parseConfigText } from "../base/config-text";

export type AgentsHandlers = HandlerMap<AgentsInvokeMap>;

export interface AgentsHandlerDeps {
  /** The machine whose agents are read (tests: a temporary HOME); the real one by default. */
  machine?: (project?: string) => Machine;
  /** The companion's own URL (`http://127.0.0.1:7315`); the gateway is `<url>/mcp`. */
  companionUrl?: () => string | undefined;
  /** How agents start the companion's CLI (the shim, the hook). */
  cli: () => { command: string; args: string[] };
  /** The gateway token, only for an entry the person chose to carry it in plain text. */
  token: () => string | undefined;
  /** Where the gateway token is kept (keychain, private file, this session only); the keychain by default. */
  tokenKept?: () => TokenKept;
  /** The companion's own config file, where long waits are written; without it the switch is not offered. */
  configPath?: string;
  now?: () => Date;
}

const VIAS: readonly AgentVia[] = ["shim", "http"];

function optionalBoolean(channel: string, input: Record<string, unknown>, key: string): boolean | undefined {
  return input[key] === undefined ? undefined : booleanField(channel, input, key);
}

export function planArg(channel: string, arg: unknown): AgentsPlanArg {
  const input = objectArg(channel, arg);
  const out: AgentsPlanArg = { agent: stringField(channel, input, "agent", 64), connect: booleanField(channel, input, "connect") };
  if (input.via !== undefined) {
    if (!(VIAS as readonly unknown[]).includes(input.via)) throw new ArgumentError(`${channel}: "via" must be "shim" or "http".`);
    out.via = input.via as AgentVia;
  }
  const hooks = optionalBoolean(channel, input, "hooks");
  if (hooks !== undefined) out.hooks = hooks;
  const literal = optionalBoolean(channel, input, "literalToken");
  if (literal !== undefined) out.literalToken = literal;
  if (input.project !== undefined) {
    const project = stringField(channel, input, "project", 4096);
    if (!isAbsolute(project)) throw new ArgumentError(`${channel}: "project" must be an absolute folder path.`);
    out.project = project;
  }
  return out;
}

function applyArg(arg: unknown): AgentsApplyArg {
  const base = planArg("agents:apply", arg);
  return { ...base, fingerprint: stringField("agents:apply", arg as Record<string, unknown>, "fingerprint", 128) };
}

/** The exact edits, by file and content: two plans with the same fingerprint write the same bytes. */
function fingerprintOf(arg: AgentsPlanArg, via: AgentVia, planned: FileChange[]): string {
  const hash = createHash("sha256");
  hash.update(JSON.stringify([arg.agent, arg.connect, via, arg.hooks === true, planned.map((c) => [c.file, c.before ?? null, c.after])]));
  return hash.digest("hex");
}

/** Where the shim finds the token, in words. */
function keptWords(kept: TokenKept): string {
  if (kept.kind === "keychain") return "the keychain";
  if (kept.kind === "file") return `${kept.path} (readable only by you)`;
  return "nowhere that outlives this session";
}

function tokenCarriage(writer: ClientWriter, via: AgentVia, kept: TokenKept): string {
  if (kept.kind === "session") return `The gateway token is kept for this session only (${kept.why}): after the companion restarts, ${writer.label} is refused until you connect it again. Fix that first to connect once for good.`;
  if (via === "shim") return `${writer.label} starts the companion's \`connect\` shim, which reads the gateway token from ${keptWords(kept)}: no token is written to the file.`;
  if (writer.http === "input") return `${writer.label} asks for the gateway token once (input "${TOKEN_INPUT_ID}"; Settings or \`toolnexus-companion token\` gives it) and keeps it in its secret storage.`;
  if (writer.http === "env") return `The entry refers to $${TOKEN_ENV}: set it where ${writer.label} runs (export ${TOKEN_ENV}="$(toolnexus-companion token)"). No token is written to the file.`;
  return `Only a literal token is possible here: the gateway token is written in plain text, and rotating it in Settings locks this entry out.`;
}

function literalMessage(writer: ClientWriter): string {
  return `${writer.label} expands no variables in its settings, so over HTTP the gateway token would be written in plain text in its file. The default, the \`connect\` shim, reads it from where the companion keeps it.`;
}

function longWaitsArg(arg: unknown): AgentsLongWaitsArg {
  const input = objectArg("agents:longWaits", arg);
  return { agent: stringField("agents:longWaits", input, "agent", 64), on: booleanField("agents:longWaits", input, "on") };
}

/** Each agent's long-waits switch as the config file says now; undefined without a file (or one that cannot be read). */
async function longWaitsOf(configPath: string | undefined): Promise<((agent: string) => boolean) | undefined> {
  if (!configPath) return undefined;
  let text: string;
  try {
    text = await readFile(configPath, "utf8");
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return () => false;
    return undefined;
  }
  try {
    const { setting } = readLongWaits(text.trim() === "" ? {} : parseConfigText(text));
    return (agent) => longWaitDeadline(setting, agent) !== undefined;
  } catch {
    return undefined;
  }
}

/** Writes one agent's long waits into the companion's config. */
async function writeLongWait(configPath: string | undefined, arg: AgentsLongWaitsArg): Promise<void> {
  const writer = writerById(arg.agent);
  if (!writer) throw new HandlerError("unknown-agent", `No agent is called "${arg.agent}".`);
  if (!configPath) throw new HandlerError("unsupported", "This companion has no config file to write the setting in.");
  try {
    await editConfigFile(configPath, (text) => setLongWait(text, writer.id, arg.on));
  } catch (error) {
    if (error instanceof ConfigEditError) throw new HandlerError("cannot-edit", error.message);
    throw new HandlerError("write-failed", `${configPath}: ${(error as Error).message}; nothing was written.`);
  }
}

export function createAgentsHandlers(deps: AgentsHandlerDeps): AgentsHandlers {
  // The app has no working folder of its own: project files are edited only when one is named.
  const machineFor = deps.machine ?? ((project?: string) => ({ ...currentMachine(), project }));
  const gateway = () => gatewayUrl(deps.companionUrl?.() || DEFAULT_COMPANION_URL);
  const now = deps.now ?? (() => new Date());
  const kept = (): TokenKept => deps.tokenKept?.() ?? { kind: "keychain" };
  // One write at a time: two clicks must not interleave backups and writes of the same file.
  let writing: Promise<unknown> = Promise.resolve();

  const list = async (project?: string): Promise<AgentView[]> => {
    const where = kept();
    const waits = await longWaitsOf(deps.configPath);
    // The shim works wherever the token outlives a restart (keychain or token file), so it stays
    // the default; a session-only token breaks every form at the next start, and the notes say so.
    return (await listAgents(machineFor(project), gateway())).map((a) => ({ ...a, tokenKept: where, ...(waits ? { longWaits: waits(a.id) } : {}) }));
  };

  async function planned(channel: string, arg: AgentsPlanArg): Promise<{ view: AgentsPlan; changes: FileChange[] }> {
    const writer = writerById(arg.agent);
    if (!writer) throw new HandlerError("unknown-agent", `No agent is called "${arg.agent}".`);
    const via = arg.via ?? writer.defaultVia;
    const hooks = arg.hooks === true;
    const base = { agent: writer.id, label: writer.label, connect: arg.connect, via, hooks };
    if (arg.connect && via === "http" && writer.http === "none") {
      throw new HandlerError("unsupported", `${writer.label}'s config file holds only local (stdio) servers; connect it with the \`connect\` shim.`);
    }
    const literal = arg.connect && via === "http" && writer.http === "literal";
    if (arg.literalToken && !literal) throw new ArgumentError(`${channel}: "literalToken" is only for an HTTP entry in an agent that cannot refer to a secret (Zed).`);
    if (literal && !arg.literalToken) {
      // Nothing is planned until the person chooses: the shim, or the token in plain text.
      return { view: { ...base, files: [], notes: [], choice: { kind: "literal-token", message: literalMessage(writer) }, fingerprint: fingerprintOf(arg, via, []) }, changes: [] };
    }
    // The shim is told the URL only when it is not the one it assumes anyway.
    const url = deps.companionUrl?.();
    const companion = url && url.replace(/\/+$/, "") !== DEFAULT_COMPANION_URL ? url : undefined;
    const options: ConnectOptions = { via, cli: deps.cli(), gatewayUrl: gateway(), ...(companion ? { companionUrl: companion } : {}) };
    if (literal) {
      const token = deps.token();
      if (!token) throw new HandlerError("no-token", "The companion has no gateway token to write yet.");
      options.literalToken = token;
    }
    const machine = machineFor(arg.project);
    let result: FileChange[];
    try {
      result = await plan(writer, machine, { project: arg.project, hooks, connect: options }, arg.connect);
    } catch (error) {
      if (error instanceof EditError) throw new HandlerError("cannot-edit", `${writer.label}: ${error.message}`);
      throw error;
    }
    const todo = changes(result);
    const files: AgentFileChange[] = result.map((c) => {
      const changing = todo.includes(c);
      return {
        file: c.file,
        what: c.what,
        note: c.note,
        changes: changing,
        creates: changing && c.before === undefined,
        deletes: changing && c.after === null,
        diff: changing ? diff(c) : "",
        ...(changing && c.before !== undefined ? { backup: `${c.file}.bak-<time>` } : {}),
      };
    });
    const notes: string[] = [];
    if (arg.connect && todo.some((c) => c.what === "server")) notes.push(tokenCarriage(writer, via, kept()));
    if (todo.length > 0 && arg.connect) notes.push(`Restart ${writer.label} (or reload its MCP servers) to pick it up.`);
    if (arg.connect && hooks && writer.id === "codex" && todo.some((c) => c.what === "hook")) notes.push("Codex runs a new hook only after you review and trust it: open /hooks in Codex.");
    if (!arg.connect && !hooks) {
      const status = (await listAgents(machine, gateway())).find((s) => s.id === writer.id);
      if (status?.hook && status.hook.installed.length > 0) notes.push(`The permission hook stays installed (${status.hook.installed.join(", ")}); choose "with permission prompts" to remove it too.`);
    }
    if (todo.length === 0) notes.push(arg.connect ? `${writer.label} is already connected; nothing would change.` : `Nothing to remove from ${writer.label}.`);
    return { view: { ...base, files, notes, fingerprint: fingerprintOf(arg, via, result) }, changes: todo };
  }

  return defineHandlers<AgentsInvokeMap>({
    "agents:list": async (arg) => {
      noArg("agents:list", arg);
      return list();
    },

    "agents:plan": async (arg) => (await planned("agents:plan", planArg("agents:plan", arg))).view,

    "agents:apply": async (raw) => {
      const arg = applyArg(raw);
      const run = writing.then(async (): Promise<AgentsApplyResult> => {
        const { view, changes: todo } = await planned("agents:apply", arg);
        if (view.choice) throw new HandlerError("choice-needed", view.choice.message);
        if (view.fingerprint !== arg.fingerprint) {
          throw new HandlerError("plan-changed", `${view.label}'s files changed since the change was shown; nothing was written. Look at the new plan and apply again.`);
        }
        const written: AgentsApplyResult["written"] = [];
        for (const change of todo) {
          try {
            const { backup } = await apply(change, now());
            written.push({ file: change.file, ...(backup ? { backup } : {}), ...(change.after === null ? { deleted: true } : {}) });
          } catch (error) {
            const done = written.length > 0 ? ` Already written: ${written.map((w) => w.file).join(", ")}.` : " Nothing was written.";
            if (error instanceof EditError) throw new HandlerError("plan-changed", `${error.message.replace(/; run the command again$/, "")}.${done}`);
            throw new HandlerError("write-failed", `${change.file}: ${(error as Error).message}.${done}`);
          }
        }
        return { agent: view.agent, written, notes: view.notes.filter((n) => !/nothing would change|Nothing to remove/.test(n)), agents: await list(arg.project) };
      });
      writing = run.catch(() => {});
      return run;
    },

    "agents:longWaits": async (raw) => {
      const arg = longWaitsArg(raw);
      const run = writing.then(async () => {
        await writeLongWait(deps.configPath, arg);
        return list();
      });
      writing = run.catch(() => {});
      return run;
    },
  });
}
