// The Servers view's actions on the companion's own servers: restart or retry one, enable,
// disable or remove one (edits of the config file, which the supervisor's watcher then applies),
// add or edit one through the form (server-form-handlers.ts), the first-run facts, and "Try a
// question" (the shipped demo server, for this session only, stopped by "Stop demo").
import type { ServerManagementInvokeMap, ServerView } from "../../shared/contract";
import type { ServerImportArg } from "../../shared/server-import";
import { currentMachine } from "../client-configs";
import { buildImport, fingerprintOf, ImportRefused, importView, writeImport, type SecretSink } from "../client-configs/import-plan";
import type { Machine } from "../client-configs/types";
import { editConfigFile, removeServer, setServerEnabled } from "./config/edit";
import { DEMO_SERVER_NAME, demoServer, firstRunInfo } from "./config/first-run";
import { createFormHandlers } from "./config/form-handlers";
import type { Supervisor } from "./supervisor";
import type { McpSource } from "./types";
import { toolWhole } from "./server-views";
import { ArgumentError, HandlerError } from "../rpc/envelope";
import { booleanField, noArg, objectArg, stringField } from "../rpc/validate";

export type ServerManagementHandlers = {
  [C in keyof ServerManagementInvokeMap]: (arg: unknown) => Promise<ServerManagementInvokeMap[C][1]>;
};

export interface ServerManagementDeps {
  /** Absent when the servers came from an object, not a file (tests, embedding). */
  supervisor?: Supervisor;
  configPath?: string;
  servers: () => ServerView[];
  /** The tools `tools:get` looks in (every connected server's, as the gateway lists them). */
  source?: () => McpSource;
  /** OAuth sign-in for remote servers (src/main/auth). */
  auth?: { signIn(server: string): Promise<boolean>; signOut(server: string): Promise<void> };
  /** Whose other clients are read for import (tests: a temporary HOME); this machine by default. */
  machine?: () => Machine;
  /** Where import moves literal secrets (the keychain); without it they can only stay literal. */
  secrets?: SecretSink;
  /** Where the form's "keep it in the keychain" stores a header's value; absent without a keychain (a value kept in memory would be gone at the next start). */
  keychain?: { set(name: string, value: string): Promise<void> };
}

const MAX_NAME = 200;
/** More names than any machine's clients hold; a bigger pick is not a person's choice. */
const MAX_PICK = 1000;

function importArg(arg: unknown): ServerImportArg {
  const input = objectArg("servers:import", arg);
  const fingerprint = stringField("servers:import", input, "fingerprint", 128);
  const pick = input.pick;
  if (!Array.isArray(pick) || pick.length > MAX_PICK || pick.some((n) => typeof n !== "string" || n === "" || n.length > MAX_NAME)) {
    throw new ArgumentError(`servers:import needs "pick" as a list of at most ${MAX_PICK} server names.`);
  }
  const keep = input.keepLiteral;
  if (keep !== undefined && (!Array.isArray(keep) || keep.length > MAX_PICK || keep.some((n) => typeof n !== "string" || n === "" || n.length > MAX_NAME))) {
    throw new ArgumentError(`servers:import takes "keepLiteral" as a list of at most ${MAX_PICK} server names.`);
  }
  return { pick: pick as string[], fingerprint, ...(keep ? { keepLiteral: keep as string[] } : {}) };
}

export function createServerManagementHandlers(deps: ServerManagementDeps): ServerManagementHandlers {
  const supervisor = (channel: string): Supervisor => {
    if (!deps.supervisor) throw new HandlerError("unsupported", `${channel}: this companion was not started from a config file.`);
    return deps.supervisor;
  };
  const configPath = (channel: string): string => {
    if (!deps.configPath) throw new HandlerError("unsupported", `${channel}: this companion has no config file to edit.`);
    return deps.configPath;
  };
  // The app reads other clients' user files (and Claude Code's known projects), not the folder it
  // happens to run in: that is the CLI's --project.
  const machine = () => deps.machine?.() ?? { ...currentMachine(), project: undefined };
  let importing: Promise<unknown> = Promise.resolve();
  const planned = async (channel: string) => {
    const built = await buildImport(configPath(channel), machine());
    if ("error" in built) throw new HandlerError("import-failed", built.error);
    return built;
  };

  // A session-only server (the demo) is not in the file: the config cannot disable or remove it.
  const notSessionOnly = (name: string) => {
    if (deps.servers().some((s) => s.name === name && s.sessionOnly)) {
      throw new HandlerError("session-only", `"${name}" runs for this session only ("Try a question"), not from the config file: Stop demo stops it.`);
    }
  };
  const known = (channel: string, name: string) => {
    if (!deps.servers().some((s) => s.name === name)) throw new HandlerError("unknown-server", `${channel}: no server is named "${name}".`);
  };

  return {
    async "servers:restart"(arg) {
      const name = stringField("servers:restart", objectArg("servers:restart", arg), "name", MAX_NAME);
      known("servers:restart", name);
      await supervisor("servers:restart").restart(name);
      return deps.servers();
    },
    async "servers:setEnabled"(arg) {
      const input = objectArg("servers:setEnabled", arg);
      const name = stringField("servers:setEnabled", input, "name", MAX_NAME);
      const enabled = booleanField("servers:setEnabled", input, "enabled");
      notSessionOnly(name);
      await editConfigFile(configPath("servers:setEnabled"), (text) => setServerEnabled(text, name, enabled));
      await deps.supervisor?.settled();
      return deps.servers();
    },
    async "servers:remove"(arg) {
      const name = stringField("servers:remove", objectArg("servers:remove", arg), "name", MAX_NAME);
      notSessionOnly(name);
      await editConfigFile(configPath("servers:remove"), (text) => removeServer(text, name));
      await deps.supervisor?.settled();
      return deps.servers();
    },
    async "servers:tryDemo"(arg) {
      noArg("servers:tryDemo", arg);
      let demo;
      try {
        demo = demoServer();
      } catch (error) {
        throw new HandlerError("no-demo", (error as Error).message);
      }
      await supervisor("servers:tryDemo").startExtra(demo);
      return deps.servers();
    },
    async "servers:stopDemo"(arg) {
      noArg("servers:stopDemo", arg);
      if (!(await supervisor("servers:stopDemo").stopExtra(DEMO_SERVER_NAME))) throw new HandlerError("unknown-server", "The demo is not running.");
      return deps.servers();
    },
    async "servers:signIn"(arg) {
      const name = stringField("servers:signIn", objectArg("servers:signIn", arg), "name", MAX_NAME);
      known("servers:signIn", name);
      if (!deps.auth) throw new HandlerError("unsupported", "servers:signIn: sign-in is not available here.");
      try {
        await deps.auth.signIn(name);
      } catch (error) {
        throw new HandlerError("sign-in-failed", `Sign-in to "${name}" did not complete: ${(error as Error).message}`);
      }
      return deps.servers();
    },
    async "servers:signOut"(arg) {
      const name = stringField("servers:signOut", objectArg("servers:signOut", arg), "name", MAX_NAME);
      known("servers:signOut", name);
      if (!deps.auth) throw new HandlerError("unsupported", "servers:signOut: sign-in is not available here.");
      await deps.auth.signOut(name);
      return deps.servers();
    },
    async "servers:importPlan"(arg) {
      noArg("servers:importPlan", arg);
      return importView(await planned("servers:importPlan"));
    },
    async "servers:import"(raw) {
      const arg = importArg(raw);
      // One import at a time: two clicks must not both plan against the same old file.
      const run = importing.then(async () => {
        const built = await planned("servers:import");
        if (fingerprintOf(built) !== arg.fingerprint) {
          throw new HandlerError("plan-changed", "The servers found or the companion's config changed since the list was shown; nothing was written. Look at the new list and import again.");
        }
        const offered = new Set(built.plan.servers.filter((s) => s.action === "add").map((s) => s.name));
        const unknown = arg.pick.filter((n) => !offered.has(n));
        if (unknown.length > 0) throw new ArgumentError(`servers:import: not offered for import: ${unknown.map((n) => JSON.stringify(n)).join(", ")}.`);
        let written;
        try {
          written = await writeImport(built, new Set(arg.pick), { keepLiteral: new Set(arg.keepLiteral ?? []), ...(deps.secrets ? { secrets: deps.secrets } : {}) });
        } catch (error) {
          if (error instanceof ImportRefused) throw new HandlerError("import-failed", error.message);
          throw error;
        }
        await deps.supervisor?.settled();
        return { configPath: built.path, added: written.added, ...(written.moved.length ? { moved: written.moved } : {}), servers: deps.servers() };
      });
      importing = run.catch(() => {});
      return run;
    },
    async "tools:get"(arg) {
      const name = stringField("tools:get", objectArg("tools:get", arg), "tool", 512);
      const tool = deps.source?.().tools.find((t) => t.name === name);
      if (!tool) throw new HandlerError("unknown-tool", `No connected server offers a tool named "${name}".`);
      return toolWhole(tool);
    },
    ...createFormHandlers({ configPath, notSessionOnly, servers: deps.servers, settled: () => deps.supervisor?.settled(), secrets: deps.keychain }),
    async "app:firstRun"(arg) {
      noArg("app:firstRun", arg);
      if (!deps.configPath) return { firstRun: false, configPath: "" };
      return firstRunInfo(deps.configPath);
    },
  };
}
