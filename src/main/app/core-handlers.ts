// The core's one handler map, every feature's channels merged, as the transports and the desktop
// shell call it: through the egress, so each result and each failure is scrubbed once.
import type { Inbox } from "../inbox";
import { mergeHandlers, type Handlers } from "../api/handlers";
import { createSettingsHandlers } from "../api/settings-handlers";
import { createInboxHandlers } from "../inbox/handlers";
import { createToolHandlers } from "../mcp/tool-handlers";
import type { SettingsState, Platform } from "../api/settings-state";
import { createServerManagementHandlers } from "../mcp/server-handlers";
import { createAgentsHandlers } from "../client-configs/agents-handlers";
import { createImportHandlers } from "../client-configs/import-handlers";
import { cliCommand } from "../client-configs/cli-command";
import { historyOffHandlers, type HistoryHandle } from "../history";
import type { RulesHandle } from "../rules";
import type { CompanionAuth } from "../auth";
import { rotateGatewayToken, tokenPlace, type SecretStore } from "../secrets";
import type { ServerParts } from "./core-servers";
import type { TasksHandlers } from "../history/tasks-handlers";
import type { DevicesHandlers } from "../devices/handlers";
import type { Egress } from "./egress";
import type { ReachHandlers } from "../reach/handlers";

export interface HandlerParts {
  platform: Platform;
  /** The config file the handlers may edit; absent when the servers came from an object. */
  configPath?: string;
  inbox: Inbox;
  history?: HistoryHandle;
  rules: RulesHandle;
  servers: ServerParts;
  /** The Tasks channels (core-tasks.ts). */
  tasks: TasksHandlers;
  auth: CompanionAuth;
  secrets: SecretStore;
  settings: SettingsState;
  /** The devices part's Settings channels (devicesOffHandlers when this run keeps none). */
  devices: DevicesHandlers;
  egress: Egress;
  log: (line: string) => void;
  /** The gateway token now, and where it is set after a rotation. */
  token: { get(): string; set(token: string): void };
  /** The url of this run's listener, once attached. */
  companionUrl: () => string | undefined;
  reach: ReachHandlers;
}

export function coreHandlers(p: HandlerParts): Handlers {
  const { secrets, settings } = p;
  const servers = () => p.servers.servers();
  const source = () => p.servers.source;
  return p.egress.handlers(
    mergeHandlers({
      history: p.history?.handlers ?? historyOffHandlers(),
      rules: p.rules.handlers,
      tasks: p.tasks,
      // Agents are connected to this run's listener; a literal token (Zed over HTTP, chosen) is the current one.
      agents: createAgentsHandlers({
        companionUrl: p.companionUrl,
        cli: () => cliCommand(),
        token: () => p.token.get(),
        tokenKept: () => tokenPlace(secrets),
        ...(p.configPath ? { configPath: p.configPath } : {}),
      }),
      imports: createImportHandlers({
        configPath: p.configPath,
        servers,
        secrets,
        settled: () => p.servers.supervisor?.settled(),
      }),
      servers: createServerManagementHandlers({
        supervisor: p.servers.supervisor,
        auth: p.auth,
        configPath: p.configPath,
        servers,
        source,
        keychain: secrets.available ? { set: async (name, value) => (await secrets.set(name, value), void (await settings.refreshSecretNames())) } : undefined,
        scrub: p.egress.shown,
      }),
      inbox: createInboxHandlers({ inbox: p.inbox, openExternal: (url) => p.platform.openExternal(url) }),
      tools: createToolHandlers({ source }),
      reach: p.reach,
      devices: p.devices,
      settings: createSettingsHandlers({
        settings,
        secrets,
        rotateToken: async () => {
          const token = await rotateGatewayToken(secrets);
          p.token.set(token);
          p.log("gateway: token rotated; agents using the old one are refused from now on.");
          return token;
        },
      }),
    }),
  );
}
