// The Servers view's list and its actions on the companion's own servers: restart or retry one, enable,
// disable or remove one (edits of the config file, which the supervisor's watcher then applies),
// add or edit one through the form (config/form-handlers.ts), the first-run facts, and "Try a
// question" (the shipped demo server, for this session only, stopped by "Stop demo").
import type { HandlerMap, InvokeMap, ServerManagementInvokeMap } from "../../shared/contract";
import type { ServerView } from "../../shared/types";
import type { ImportChannel } from "../../shared/server-import";
import { editConfigFile, removeServer, setServerEnabled } from "./config/edit";
import { DEMO_SERVER_NAME, demoServer, firstRunInfo } from "./config/first-run";
import { createFormHandlers } from "./config/form-handlers";
import type { Supervisor } from "./supervisor";
import type { McpSource } from "./types";
import { toolWhole } from "./server-views";
import { HandlerError } from "../rpc/envelope";
import { defineHandlers } from "../rpc/handlers";
import { booleanField, noArg, objectArg, stringField } from "../rpc/validate";

/** Every channel of the Servers view but import's (client-configs/import-handlers.ts). */
export type ServerChannel = "servers:list" | Exclude<keyof ServerManagementInvokeMap, ImportChannel>;
export type ServerManagementHandlers = HandlerMap<Pick<InvokeMap, ServerChannel>>;

export interface ServerManagementDeps {
  /** Absent when the servers came from an object, not a file (tests, embedding). */
  supervisor?: Supervisor;
  configPath?: string;
  servers: () => ServerView[];
  /** The tools `tools:get` looks in (every connected server's, as the gateway lists them). */
  source?: () => McpSource;
  /** OAuth sign-in for remote servers (src/main/auth). */
  auth?: { signIn(server: string): Promise<boolean>; signOut(server: string): Promise<void> };
  /** Where the form's "keep it in the keychain" stores a header's value; absent without a keychain (a value kept in memory would be gone at the next start). */
  keychain?: { set(name: string, value: string): Promise<void> };
  /** What core's scrubbing of every handler result does to text on its way to the page (app/egress.ts); none in tests. */
  scrub?: (text: string) => string;
}

const MAX_NAME = 200;

export function createServerManagementHandlers(deps: ServerManagementDeps): ServerManagementHandlers {
  const supervisor = (channel: string): Supervisor => {
    if (!deps.supervisor) throw new HandlerError("unsupported", `${channel}: this companion was not started from a config file.`);
    return deps.supervisor;
  };
  const configPath = (channel: string): string => {
    if (!deps.configPath) throw new HandlerError("unsupported", `${channel}: this companion has no config file to edit.`);
    return deps.configPath;
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

  return defineHandlers<Pick<InvokeMap, ServerChannel>>({
    async "servers:list"(arg) {
      noArg("servers:list", arg);
      return deps.servers();
    },
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
    async "tools:get"(arg) {
      const name = stringField("tools:get", objectArg("tools:get", arg), "tool", 512);
      const tool = deps.source?.().tools.find((t) => t.name === name);
      if (!tool) throw new HandlerError("unknown-tool", `No connected server offers a tool named "${name}".`);
      return toolWhole(tool);
    },
    ...createFormHandlers({ configPath, notSessionOnly, servers: deps.servers, settled: () => deps.supervisor?.settled(), secrets: deps.keychain, scrub: deps.scrub ?? ((text) => text) }),
    async "app:firstRun"(arg) {
      noArg("app:firstRun", arg);
      if (!deps.configPath) return { firstRun: false, configPath: "" };
      return firstRunInfo(deps.configPath);
    },
  });
}
