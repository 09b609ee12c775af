// The one handler map behind every transport (Electron IPC and the browser WebSocket): each
// feature's own map, merged. Every handler takes untrusted input, checks it, and either returns
// the contract's result or throws an error the transport wraps into an Envelope. The merge is
// typed against the whole contract, so a channel no feature serves does not compile.
import type { HandlerMap, InvokeMap } from "../../shared/contract";
import type { AgentsHandlers } from "../client-configs/agents-handlers";
import type { ImportHandlers } from "../client-configs/import-handlers";
import type { DevicesHandlers } from "../devices/handlers";
import type { HistoryHandlers } from "../history/handlers";
import type { InboxHandlers } from "../inbox/handlers";
import type { ServerManagementHandlers } from "../mcp/server-handlers";
import type { ToolHandlers } from "../mcp/tool-handlers";
import type { RulesHandlers } from "../rules/handlers";
import type { ReachHandlers } from "../reach/handlers";
import type { SettingsHandlers } from "./settings-handlers";
import type { TasksHandlers } from "../history/tasks-handlers";

export type Handlers = HandlerMap<InvokeMap>;

/** Each feature's handlers, as its own create…Handlers made them. */
export interface FeatureHandlers {
  inbox: InboxHandlers;
  servers: ServerManagementHandlers;
  tools: ToolHandlers;
  imports: ImportHandlers;
  agents: AgentsHandlers;
  history: HistoryHandlers;
  rules: RulesHandlers;
  tasks: TasksHandlers;
  reach: ReachHandlers;
  settings: SettingsHandlers;
  devices: DevicesHandlers;
}

export function mergeHandlers(features: FeatureHandlers): Handlers {
  return {
    ...features.inbox,
    ...features.servers,
    ...features.tools,
    ...features.imports,
    ...features.agents,
    ...features.history,
    ...features.rules,
    ...features.tasks,
    ...features.reach,
    ...features.settings,
    ...features.devices,
  };
}
