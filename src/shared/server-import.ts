// In-app import (servers:importPlan, servers:import): what other clients hold, per client and
// file, and what importing each server would change in the companion's own config.
import type { ServerView } from "./contract";

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
}

export interface ServerImportResult {
  configPath: string;
  added: string[];
  servers: ServerView[];
}
