// In-app import (servers:importPlan, servers:import): what other clients hold, per client and
// file, and what importing each server would change in the companion's own config.
import type { ServerView } from "./types";

/**
 * `new`: importing adds it under `name`. `existing`: the companion already runs this server (as
 * `name`). `duplicate`: the same server as one listed earlier (imported once, from there).
 * `skipped`: the companion cannot run it; `reason` says why.
 */
export type ImportAction = "new" | "existing" | "duplicate" | "skipped";

export interface ImportCandidate {
  /** The name it would have in the companion's config (for `existing`: the name it has there). */
  name: string;
  /** The name this client gives it. */
  clientName: string;
  type: "local" | "remote" | null;
  command?: string;
  args?: string[];
  url?: string;
  action: ImportAction;
  /** Set for a `new` server whose name was taken: it is written as `name`, kept apart. */
  clash?: boolean;
  disabled?: boolean;
  /** VS Code `${input:id}` questions it asks the first time it starts. */
  inputs?: string[];
  /** One plain sentence: why skipped, where the duplicate came from, what the clash means. */
  reason?: string;
  /** The folder it runs in, shown with the command when it is untrusted. */
  cwd?: string;
  /**
   * Its client would not run it ("not trusted in Claude Code: …", "disabled in Claude Code: …"):
   * offered unticked, with its full command, and imported only when ticked.
   */
  untrusted?: string;
  /** Env or header values written inline that look like credentials: where, and the keychain name they would move to. */
  literalSecrets?: Array<{ field: "env" | "headers"; key: string; secret: string }>;
}

export interface ImportGroup {
  client: string;
  label: string;
  file: string;
  /** `user`, `project:<dir>`, `local:<dir>` or `file`. */
  scope: string;
  /** The file could not be read; nothing from it is offered. */
  error?: string;
  servers: ImportCandidate[];
}

export interface ServerImportPlan {
  configPath: string;
  groups: ImportGroup[];
  /** Of the exact plan shown: servers:import refuses any other. */
  fingerprint: string;
}

export interface ServerImportArg {
  /** Names of `new` candidates, as the plan gave them. */
  pick: string[];
  fingerprint: string;
  /** Picked servers whose literal secrets stay literal; every other one's move into the keychain. */
  keepLiteral?: string[];
}

export interface ServerImportResult {
  configPath: string;
  added: string[];
  /** Keychain names the literal secrets were moved to (`${secret:NAME}` in the config now). */
  moved?: string[];
  servers: ServerView[];
}

/** The Servers view's import channels (client-configs/import-handlers.ts serves them). */
export type ImportChannel = "servers:importPlan" | "servers:import";
