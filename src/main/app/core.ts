// The app's core, without any window system: the MCP source, the Inbox, settings, secrets and the
// one handler map. Electron (src/main/desktop) and browser mode (serve.ts) both compose this.
// What its users read leaves through the egress (app/egress.ts): the handlers, the events, the
// servers view, the pending questions and the gateway's replies to agents, each scrubbed of every
// secret the core knows. The raw Inbox and source stay inside (`internals` is for tests only).
import { randomBytes } from "node:crypto";
import type { Settings } from "../../shared/contract";
import type { PendingEntry, ServerStatus, ServerView } from "../../shared/types";
import { Inbox, inboxWaitFor, type InboxOptions } from "../inbox";
import type { McpSource } from "../mcp/types";
import type { Handlers } from "../api/handlers";
import { SettingsState, type Platform } from "../api/settings-state";
import { createMemoryStore, gatewayToken, registeringStore, SecretScrubber, type SecretStore } from "../secrets";
import { registerConfiguredSecrets } from "../mcp/config/secrets";
import { readConfigFile } from "../mcp/config/file";
import { openHistory, type HistoryHandle } from "../history";
import { openRules, type RulesHandle } from "../rules";
import { CallbackHub, createAuth, startCallbackListener } from "../auth";
import { readWhoAnswers, whoAnswersFor, type WhoAnswersSetting } from "../gateway/who-answers";
import { readLongWaits, type LongWaitsSetting } from "../mcp/config/long-waits";
import type { WhoAnswers } from "../gateway/tool-server";
import { createGatewayRoute, createRequestsRoute, type GatewayRoute, type RequestsRoute } from "../gateway";
import { parseConfig, type SkippedEntry } from "../mcp/config/parse";
import { CONFIG_ERROR_ENTRY } from "../mcp/server-views";
import { createEvents, type CoreEvents, type EventHub } from "./core-events";
import { coreHandlers } from "./core-handlers";
import { startServers, type ServerParts } from "./core-servers";
import { openTasks } from "./core-tasks";
import type { TaskLedger } from "../mcp/tasks/ledger";
import { createEgress, type Egress } from "./egress";
import { devicesForReach, openReach, reachPublicRoute, type ReachCoreOptions } from "./reach";
import type { Reach } from "../reach/reach";
import { createAttribution, openDevices, type Attribution, type DeviceParts } from "./device-server";
import type { DevicesOptionsOfCore } from "./device-server";
import type { DeviceRegistry } from "../devices/devices";

export type { CoreEvents } from "./core-events";
export { CONFIG_ERROR_ENTRY };

export interface CoreOptions {
  /** Path of the MCP config file (JSON). Ignored when `config` is given. */
  configPath?: string;
  /** The config itself (tests, embedding). */
  config?: unknown;
  platform: Platform;
  log?: (line: string) => void;
  /**
   * The process's secret registry: app/electron.ts and app/serve.ts make one and scrub their own
   * log lines with it too. The core registers every secret it learns into it. A new one otherwise.
   */
  scrubber?: SecretScrubber;
  inbox?: InboxOptions;
  /** The keychain-backed store (openSecretStore()); a session-only memory store otherwise. */
  secrets?: SecretStore;
  /** Longest a tool call may wait on a person (passed to loadMcp). */
  maxWaitMs?: number;
  /** The history database (defaultHistoryPath() in the apps); without it nothing is recorded. */
  historyPath?: string;
  /** The desktop app's Electron build of better-sqlite3 (src/main/app/electron.ts); Node's otherwise. */
  historyNative?: { binding?: string; fix: string };
  /** The rules file (defaultRulesPath() in the apps); without it rules last this session only. */
  rulesPath?: string;
  /**
   * Return before the servers have connected (they show `connecting`): the app's windows, tray
   * and gateway come up at once instead of waiting for the slowest server. `ready` settles later.
   */
  connectInBackground?: boolean;
  /** Questions that find the person away from the desk (app/reach.ts). */
  reach?: ReachCoreOptions;
  /** Answering from another device: its folder and the page it serves (off when absent). */
  devices?: DevicesOptionsOfCore;
}

/** What core needs of a listener to report its address and close it last. */
export interface AttachedListener {
  url: string;
  close(): Promise<void>;
}

/** The routes agents reach the companion by, mounted on the loopback listener (companion-server.ts). */
export interface AgentRoutes {
  /** /mcp: the gateway; whatever it relays from a server passes the egress. */
  gateway: GatewayRoute;
  /** /v1/requests: questions agents post themselves, answered by the person. */
  requests: RequestsRoute;
}

export interface Core {
  /** The log sink every line of the app goes through: scrubbed of every known secret. */
  log(line: string): void;
  handlers: Handlers;
  events: CoreEvents;
  servers(): ServerView[];
  settings(): Settings;
  /** The questions waiting for the person, as a view may show them (the tray, the window's start). */
  pending(): PendingEntry[];
  /** Each server's status as it changes (browser mode says when one connects). */
  onServerStatus(listener: (status: ServerStatus) => void): () => void;
  /** The gateway and the requests route for this run's listener, logging to `log`. */
  agentRoutes(log: (line: string) => void): AgentRoutes;
  pauseNotifications(minutes: number | null): void;
  /** The gateway's current bearer token (also the page link's token). Read it per request. */
  token(): string;
  /** Who answers a server's question during this agent's gateway call (config `gateway.elicitation`). */
  whoAnswers(agent: string): WhoAnswers;
  /** Registers the loopback listener: its url shows in settings and close() closes it last. */
  attachListener(listener: AttachedListener): void;
  /** Asks every view to show question `id` (tray menu, notification click). */
  focus(id: string): void;
  /** The paired devices and the device listener, for features that reach them (push); absent when this run keeps none. */
  deviceRegistry(): DeviceRegistry | undefined;
  /** Settles once every server is connected or failed. */
  ready: Promise<void>;
  /** What the device listener mounts of reach/: the ntfy Allow/Deny route, the VAPID public key. */
  reach: Pick<Reach, "actionRoute" | "vapidPublicKey">;
  close(): Promise<void>;
  /**
   * The parts themselves, for tests that play a server or an agent (ask a question, answer it,
   * call a tool). No app code reads them: nothing read here has passed the egress.
   */
  internals: { inbox: Inbox; source: McpSource; tasks: TaskLedger };
}

/** The store every secret read or written goes through (registered with the scrubber), and the gateway token. */
async function openSecrets(options: CoreOptions, scrubber: SecretScrubber, log: (line: string) => void): Promise<{ secrets: SecretStore; token: string }> {
  const secrets = registeringStore(
    options.secrets ?? createMemoryStore("No keychain in use: secrets are kept in memory for this session only."),
    scrubber,
  );
  if (!secrets.available) log(`secrets: ${secrets.detail}`);
  try {
    return { secrets, token: await gatewayToken(secrets) };
  } catch (error) {
    // A keychain that fails on write must not keep the app from starting; the token then lasts one session.
    log(`secrets: could not keep the gateway token (${(error as Error).message}); using a token for this session only.`);
    const token = randomBytes(32).toString("base64url");
    scrubber.register(token);
    return { secrets, token };
  }
}

/** The config at start: the object given, the file read, or none. */
async function startConfig(options: CoreOptions, log: (line: string) => void): Promise<{ config: unknown; configError?: string }> {
  if (options.config !== undefined) return { config: options.config };
  if (!options.configPath) {
    log("config: no MCP config given; starting with no servers.");
    return { config: {} };
  }
  const read = await readConfigFile(options.configPath);
  if (read.note) log(read.note);
  return { config: read.config, configError: read.error };
}

interface QuestionParts {
  inbox: Inbox;
  history?: HistoryHandle;
  rules: RulesHandle;
}

/** The Inbox, the history that records it and the rules that answer it, in that order. */
function openQuestions(options: CoreOptions, egress: Egress, log: (line: string) => void, attribution: Attribution): QuestionParts {
  const inbox = new Inbox(options.inbox);
  const redact = egress.stored;
  // History records every question from the moment the Inbox exists; it never blocks answering.
  const history = options.historyPath ? openHistory(inbox, { path: options.historyPath, log, redact, answeredOn: attribution.of, ...(options.historyNative ? { native: options.historyNative } : {}) }) : undefined;
  // Rules answer matching questions the moment they are admitted (after history starts listening).
  const rules = openRules(inbox, { ...(options.rulesPath ? { path: options.rulesPath } : {}), log, redact });
  return { inbox, history, rules };
}

export async function createCore(options: CoreOptions): Promise<Core> {
  // Secrets stay with their servers: whatever a server echoes back (an error body repeating our
  // Authorization header) is scrubbed on its way to a log line, a page or an agent.
  const scrubber = options.scrubber ?? new SecretScrubber();
  const egress = createEgress(scrubber);
  const log = egress.log(options.log ?? (() => {}));
  const events = createEvents(egress);
  const { secrets, token } = await openSecrets(options, scrubber, log);

  const { config, configError } = await startConfig(options, log);
  registerConfiguredSecrets(config, scrubber);
  const state: CoreState = { token, whoAnswers: readWhoAnswersLogged(config, log), longWaits: readLongWaitsLogged(config, log), listeners: [] };
  for (const entry of skippedEntries(config)) log(`config: "${entry.name}" skipped: ${entry.reason}`);

  const attribution = createAttribution();
  const questions = openQuestions(options, egress, log, attribution);
  // Followed tasks are kept in History's file (so they outlive this run), else in memory.
  const tasks = openTasks(questions.history, egress.stored, log);
  // Remote servers that need OAuth ask the person through the Inbox; the browser comes back to a
  // loopback listener of this run (RFC 8252: the registration is kept whatever its port).
  const oauthHub = new CallbackHub();
  const oauthCallback = await startCallbackListener(oauthHub);
  const auth = createAuth({ secrets, callbackUrl: oauthCallback.url, hub: oauthHub, redact: (value) => scrubber.register(value) });
  const fromFile = options.config === undefined ? options.configPath : undefined;
  const servers = startServers({
    config,
    configError,
    configPath: fromFile,
    load: {
      waitFor: inboxWaitFor(questions.inbox),
      auth,
      log,
      secret: (name: string) => secrets.get(name),
      storeSecret: (name: string, value: string) => secrets.set(name, value),
      tasks: tasks.ledger,
      ...(options.maxWaitMs !== undefined ? { maxWaitMs: options.maxWaitMs } : {}),
    },
    egress,
    events,
    log,
    onConfig: (c) => {
      registerConfiguredSecrets(c, scrubber);
      state.whoAnswers = readWhoAnswersLogged(c, log);
      state.longWaits = readLongWaitsLogged(c, log);
    },
  });
  if (!options.connectInBackground) await servers.ready;
  if (servers.configError) log(`config: ${servers.configError}`);

  const settings = new SettingsState(options.platform, secrets, () => state.token !== "");
  const { history } = questions;
  if (history) settings.setHistorySize(() => ({ bytes: history.store.sizeBytes(), budgetBytes: history.store.budgetBytes }));
  await settings.refreshSecretNames();

  const unsubscribes = [
    questions.inbox.on((event) => events.emit("inbox:event", event)),
    settings.on((value) => events.emit("settings:changed", value)),
    questions.rules.on((list) => events.emit("rules:changed", list)),
    tasks.watch(servers.source, events),
  ];
  // Devices answer through the core's own handlers (allow-listed), made just below.
  let handlers: Handlers | undefined;
  const devices = openDevices({ ...options.devices, log, handlers: () => handlers!, events, attribution, changed: (state) => events.emit("devices:changed", state) });
  // A question not answered at the desk reaches the paired devices (push, links to the device
  // listener) and the channels; ntfy's Allow/Deny links come back through the device listener.
  const reach = openReach({ ...(devices.service ? devicesForReach(devices.service) : {}), ...options.reach }, { inbox: questions.inbox, secrets, egress, log });
  devices.service?.addPublicRoute(reachPublicRoute(reach.reach));
  devices.service?.usePushKey(() => reach.reach.vapidPublicKey());
  handlers = coreHandlers({
    ...questions,
    devices: devices.handlers,
    platform: options.platform,
    configPath: fromFile,
    servers,
    tasks: tasks.handlers(() => servers.source),
    auth,
    secrets,
    settings,
    egress,
    log,
    token: { get: () => state.token, set: (t) => void (state.token = t) },
    companionUrl: () => state.listeners[0]?.url,
    reach: reach.handlers,
  });

  let closing: Promise<void> | undefined;
  const close = () => {
    // Pending questions are cancelled first (every view sees them withdrawn), then the MCP
    // clients and their children go, and the listener last so pages hear all of it.
    closing ??= (async () => {
      questions.inbox.close();
      reach.reach.close();
      questions.rules.close();
      // What the shutdown withdrew, and the tasks' last changes, are written before the file closes.
      tasks.close();
      history?.close();
      await servers.close();
      for (const unsubscribe of unsubscribes) unsubscribe();
      servers.stopEvents();
      settings.close();
      await Promise.allSettled([...state.listeners.map((l) => l.close()), oauthCallback.close(), devices.close()]);
      events.clear();
    })();
    return closing;
  };
  await devices.start();
  return coreApi({ questions, servers, settings, egress, events, handlers, log, state, close, tasks: tasks.ledger, reach: reach.reach, devices });
}

/** What changes while the core runs: the token (rotated), the config's who-answers (edited), the listener. */
interface CoreState {
  token: string;
  whoAnswers: WhoAnswersSetting;
  /** Which agents wait long for their person (config `gateway.longWaits`). */
  longWaits: LongWaitsSetting;
  listeners: AttachedListener[];
}

interface CoreParts {
  questions: QuestionParts;
  servers: ServerParts;
  settings: SettingsState;
  egress: Egress;
  events: EventHub;
  handlers: Handlers;
  log: (line: string) => void;
  state: CoreState;
  tasks: TaskLedger;
  reach: Reach;
  devices: DeviceParts;
  close(): Promise<void>;
}

/** What the core's users get: narrow reads, each through the egress, and the parts for tests. */
function coreApi(p: CoreParts): Core {
  const { questions, servers, settings, egress, events, state } = p;
  const { inbox } = questions;
  const { source } = servers;
  const whoAnswers = (agent: string) => whoAnswersFor(state.whoAnswers, agent);
  return {
    log: p.log,
    handlers: p.handlers,
    events: { on: events.on },
    servers: () => servers.servers(),
    settings: () => egress.settings(settings.get()),
    pending: () => egress.pending(inbox.list()),
    onServerStatus: (listener) =>
      source.on((event) => {
        if (event.type === "status") listener(egress.status(event.status));
      }),
    agentRoutes: (log) => ({
      // Read per call, so an edit of `gateway.elicitation` or `gateway.longWaits` in the config applies at once.
      gateway: createGatewayRoute({ source, log, outbound: egress.agents, elicitation: whoAnswers, longWaits: () => state.longWaits }),
      requests: createRequestsRoute({ inbox, log }),
    }),
    pauseNotifications: (minutes) => {
      if (minutes === null) settings.pause(null);
      else if (minutes <= 0) settings.resume();
      else settings.pause(minutes);
    },
    token: () => state.token,
    whoAnswers,
    attachListener(listener) {
      state.listeners.push(listener);
      settings.setGatewayUrl(`${listener.url}/mcp`);
    },
    focus: (id) => events.emit("inbox:focus", { id }),
    deviceRegistry: () => p.devices.service,
    ready: servers.ready,
    reach: { actionRoute: p.reach.actionRoute, vapidPublicKey: p.reach.vapidPublicKey },
    close: p.close,
    internals: { inbox, source, tasks: p.tasks },
  };
}

/** Entries of the config that are not servers (settings keys, editor-provided servers), to say so once. */
function skippedEntries(config: unknown): SkippedEntry[] {
  try {
    return parseConfig(config, { expand: false }).skipped;
  } catch {
    return [];
  }
}

function readWhoAnswersLogged(config: unknown, log: (line: string) => void): WhoAnswersSetting {
  const { setting, problems } = readWhoAnswers(config);
  for (const problem of problems) log(`config: ${problem}; the person answers instead.`);
  return setting;
}

function readLongWaitsLogged(config: unknown, log: (line: string) => void): LongWaitsSetting {
  const { setting, problems } = readLongWaits(config);
  for (const problem of problems) log(`config: ${problem}.`);
  return setting;
}
