// What the supervisor's parts share: the source they change, one server at a time, and how an
// error reads in their log lines.
import type { ServerStatus } from "../../shared/types";
import type { ServerConfig } from "./config/config";
import type { ServerConnection } from "./connection/lifecycle";
import type { McpSource } from "./types";
import { errorMessage } from "../../shared/unknown-value";

/** What the supervisor needs of the source: its connections, changed one server at a time (source.ts). */
export interface RuntimeSource extends McpSource {
  connection(name: string): ServerConnection | undefined;
  list(): ServerConnection[];
  /** A new connection for `server`, not yet connected. */
  add(server: ServerConfig): ServerConnection;
  /** Closes the old connection (withdrawing its questions) and puts a new, unconnected one in its place. */
  replace(server: ServerConfig): Promise<ServerConnection>;
  remove(name: string): Promise<void>;
  /** Config entries that could not be read, shown as failed servers. */
  setInvalid(invalid: ServerStatus[]): void;
  /** Fields shown over a server's own status (restarting, attempt, next try); undefined clears. */
  annotate(name: string, patch: Partial<ServerStatus> | undefined): void;
}

