// The companion's servers as main last sent them, and the actions that change them: main answers
// each with the new list, which is shown at once (its `servers:changed` follows).
import type { Envelope } from "../../shared/contract";
import type { ServerView } from "../../shared/types";
import type { ServerSaveArg, ServerSaveResult } from "../../shared/server-form";
import type { ServerImportArg, ServerImportResult } from "../../shared/server-import";
import type { Call } from "./api";

/** A server's own buttons: each names the server and answers with the whole list. */
export type ServerAction = "servers:restart" | "servers:setEnabled" | "servers:remove" | "servers:signIn" | "servers:signOut";

export class ServersState {
  // Raw state: main sends whole snapshots and we replace them, so deep proxies would only cost.
  list = $state.raw<ServerView[]>([]);
  /** `servers:changed` events seen, so a snapshot asked for before one loses to it. */
  #seen = 0;

  constructor(private readonly call: Call) {}

  /** Main's `servers:changed`. */
  changed(servers: ServerView[]): void {
    this.#seen++;
    this.list = servers;
  }

  async load(): Promise<Envelope<ServerView[]>> {
    const seen = this.#seen;
    const result = await this.call("servers:list");
    if (result.ok && this.#seen === seen) this.list = result.value;
    return result;
  }

  /** The server (by its name) that offers `tool`, a tool's full name. */
  serverOf(tool: string): string | undefined {
    return this.list.flatMap((s) => s.tools).find((t) => t.name === tool)?.server;
  }

  /** Restart, enable or disable, remove, sign in or out. */
  act(channel: ServerAction, arg: { name: string; enabled?: boolean }): Promise<Envelope<ServerView[]>> {
    return this.#took(this.call(channel, arg));
  }

  /** "Try a question": starts the shipped demo server for this session. */
  tryDemo(): Promise<Envelope<ServerView[]>> {
    return this.#took(this.call("servers:tryDemo"));
  }

  stopDemo(): Promise<Envelope<ServerView[]>> {
    return this.#took(this.call("servers:stopDemo"));
  }

  /** Adds or changes a config server; the list is shown once main saved it. */
  async save(arg: ServerSaveArg): Promise<Envelope<ServerSaveResult>> {
    const result = await this.call("servers:save", arg);
    if (result.ok && result.value.saved) this.list = result.value.servers;
    return result;
  }

  /** Imports the picked servers of a plan; an empty list back (nothing added) keeps the one shown. */
  async import(arg: ServerImportArg): Promise<Envelope<ServerImportResult>> {
    const result = await this.call("servers:import", arg);
    if (result.ok && result.value.servers.length > 0) this.list = result.value.servers;
    return result;
  }

  async #took(action: Promise<Envelope<ServerView[]>>): Promise<Envelope<ServerView[]>> {
    const result = await action;
    if (result.ok) this.list = result.value;
    return result;
  }
}
