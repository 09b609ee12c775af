// The Servers view's import: the plan of what other clients' configs hold that the companion's
// does not, and writing the picked servers into the companion's config (import-plan.ts).
import type { HandlerMap, ServerManagementInvokeMap } from "../../shared/contract";
import type { ImportChannel, ServerImportArg } from "../../shared/server-import";
import type { ServerView } from "../../shared/types";
import { currentMachine } from ".";
import { buildImport, fingerprintOf, ImportRefused, importView, writeImport, type SecretSink } from "./import-plan";
import type { Machine } from "./types";
import { ArgumentError, HandlerError } from "../rpc/envelope";
import { defineHandlers } from "../rpc/handlers";
import { noArg, objectArg, stringField } from "../rpc/validate";

export type ImportHandlers = HandlerMap<Pick<ServerManagementInvokeMap, ImportChannel>>;

export interface ImportDeps {
  /** The companion's config file; absent when the servers came from an object (tests, embedding). */
  configPath?: string;
  servers: () => ServerView[];
  /** Resolves once the supervisor has applied the config as written. */
  settled?: () => Promise<void> | undefined;
  /** Whose other clients are read for import (tests: a temporary HOME); this machine by default. */
  machine?: () => Machine;
  /** Where import moves literal secrets (the keychain); without it they can only stay literal. */
  secrets?: SecretSink;
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

export function createImportHandlers(deps: ImportDeps): ImportHandlers {
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

  return defineHandlers<Pick<ServerManagementInvokeMap, ImportChannel>>({
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
        await deps.settled?.();
        return { configPath: built.path, added: written.added, ...(written.moved.length ? { moved: written.moved } : {}), servers: deps.servers() };
      });
      importing = run.catch(() => {});
      return run;
    },
  });
}
