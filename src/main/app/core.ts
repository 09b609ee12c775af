// The app's core, without any window system: the MCP source, the Inbox, settings, secrets and the
// one handler map. Electron (src/main/desktop) and browser mode (serve.ts) both compose this.
import { randomBytes } from "node:crypto";
import type { EventChannel, EventMap, Settings } from "../../shared/contract";
import type { ServerView } from "../../shared/types";
import { Inbox, inboxWaitFor, type InboxOptions } from "../inbox";
import type { McpSource } from "../mcp/types";
import { startMcp, type StartedMcp } from "../mcp/source";
import { createHandlers, type Handlers } from "../api/handlers";
import { createServerManagementHandlers } from "../mcp/server-handlers";
import { createAgentsHandlers } from "../client-configs/agents-handlers";
import { createImportHandlers } from "../client-configs/import-handlers";
import { cliCommand } from "../cli/agents";
import { SettingsState, type Platform } from "../api/settings-state";
import { createMemoryStore, gatewayToken, registeringStore, rotateGatewayToken, secretScrubber, tokenPlace, type SecretStore } from "../secrets";
import { registerConfiguredSecrets } from "../mcp/config/secrets";
import { readConfigFile } from "../mcp/config/file";
import { historyOffHandlers, openHistory } from "../history";
import { openRules } from "../rules";
import { CallbackHub, createAuth, startCallbackListener } from "../auth";
import { readWhoAnswers, whoAnswersFor, type WhoAnswersSetting } from "../gateway/who-answers";
import type { WhoAnswers } from "../gateway/tool-server";
import { parseConfig, type SkippedEntry } from "../mcp/config/parse";
import { superviseSource } from "../mcp/supervisor";
import type { RuntimeSource } from "../mcp/supervision";
import { CONFIG_ERROR_ENTRY, listChangeNotifier, ServerViews } from "../mcp/server-views";
import { SERVERS_EVENT_INTERVAL_MS } from "../../shared/limits";

export type { Platform } from "../api/settings-state";
export type { Handlers } from "../api/handlers";

export interface CoreOptions {
  /** Path of the MCP config file (JSON). Ignored when `config` is given. */
  configPath?: string;
  /** The config itself (tests, embedding). */
  config?: unknown;
  platform: Platform;
  log?: (line: string) => void;
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
}

export interface CoreEvents {
  on<E extends EventChannel>(event: E, listener: (payload: EventMap[E]) => void): () => void;
}

/** What core needs of a listener to report its address and close it last. */
export interface AttachedListener {
  url: string;
  close(): Promise<void>;
}

export interface Core {
  inbox: Inbox;
  /** The log sink every line of the app goes through: scrubbed of every known secret. */
  log(line: string): void;
  source: McpSource;
  handlers: Handlers;
  events: CoreEvents;
  servers(): ServerView[];
  settings(): Settings;
  pauseNotifications(minutes: number | null): void;
  /** The gateway's current bearer token (also the page link's token). Read it per request. */
  token(): string;
  /** Who answers a server's question during this agent's gateway call (config `gateway.elicitation`). */
  whoAnswers(agent: string): WhoAnswers;
  /** Registers the loopback listener: its url shows in settings and close() closes it last. */
  attachListener(listener: AttachedListener): void;
  /** Asks every view to show question `id` (tray menu, notification click). */
  focus(id: string): void;
  /** Settles once every server is connected or failed. */
  ready: Promise<void>;
  close(): Promise<void>;
}

/** Every payload a view receives is scrubbed once here, whoever listens (pages, tray, notifications). */
function createEvents() {
  const listeners = new Map<EventChannel, Set<(payload: never) => void>>();
  return {
    on<E extends EventChannel>(event: E, listener: (payload: EventMap[E]) => void): () => void {
      let set = listeners.get(event);
      if (!set) listeners.set(event, (set = new Set()));
      set.add(listener as (payload: never) => void);
      return () => set!.delete(listener as (payload: never) => void);
    },
    emit<E extends EventChannel>(event: E, raw: EventMap[E]): void {
      const set = listeners.get(event);
      if (!set || set.size === 0) return;
      this.emitScrubbed(event, secretScrubber.scrubValue(raw));
    },
    /** For a payload made of pieces each scrubbed already (the servers list): not walked again. */
    emitScrubbed<E extends EventChannel>(event: E, payload: EventMap[E]): void {
      const set = listeners.get(event);
      if (!set || set.size === 0) return;
      for (const listener of set) {
        try {
          (listener as (payload: EventMap[E]) => void)(payload);
        } catch {
          // A broken view must not stop the others.
        }
      }
    },
    listening: (event: EventChannel) => (listeners.get(event)?.size ?? 0) > 0,
    clear: () => listeners.clear(),
  };
}

export { CONFIG_ERROR_ENTRY };

export async function createCore(options: CoreOptions): Promise<Core> {
  // Secrets stay with their servers: whatever a server echoes back (an error body repeating our
  // Authorization header) is scrubbed on its way to a log line, a page or an agent.
  const sink = options.log ?? (() => {});
  const log = (line: string) => sink(secretScrubber.scrub(line));
  const events = createEvents();
  const secrets = registeringStore(
    options.secrets ?? createMemoryStore("No keychain in use: secrets are kept in memory for this session only."),
    secretScrubber,
  );
  if (!secrets.available) log(`secrets: ${secrets.detail}`);

  let token: string;
  try {
    token = await gatewayToken(secrets);
  } catch (error) {
    // A keychain that fails on write must not keep the app from starting; the token then lasts one session.
    log(`secrets: could not keep the gateway token (${(error as Error).message}); using a token for this session only.`);
    token = randomBytes(32).toString("base64url");
    secretScrubber.register(token);
  }

  let config: unknown = options.config ?? {};
  let configError: string | undefined;
  if (options.config === undefined && options.configPath) {
    const read = await readConfigFile(options.configPath);
    config = read.config;
    configError = read.error;
    if (read.note) log(read.note);
  } else if (options.config === undefined) {
    log("config: no MCP config given; starting with no servers.");
  }

  registerConfiguredSecrets(config, secretScrubber);
  let whoAnswers: WhoAnswersSetting = readWhoAnswersLogged(config, log);
  for (const entry of skippedEntries(config)) log(`config: "${entry.name}" skipped: ${entry.reason}`);

  const inbox = new Inbox(options.inbox);
  // History records every question from the moment the Inbox exists; it never blocks answering.
  const history = options.historyPath ? openHistory(inbox, { path: options.historyPath, log, redact: (v) => secretScrubber.scrubValue(v), ...(options.historyNative ? { native: options.historyNative } : {}) }) : undefined;
  // Rules answer matching questions the moment they are admitted (after history starts listening).
  const rules = openRules(inbox, { ...(options.rulesPath ? { path: options.rulesPath } : {}), log, redact: (v) => secretScrubber.scrubValue(v) });
  // Remote servers that need OAuth ask the person through the Inbox; the browser comes back to a
  // loopback listener of this run (RFC 8252: the registration is kept whatever its port).
  const oauthHub = new CallbackHub();
  const oauthCallback = await startCallbackListener(oauthHub);
  const auth = createAuth({ secrets, callbackUrl: oauthCallback.url, hub: oauthHub, redact: (value) => secretScrubber.register(value) });
  const loadOptions = {
    waitFor: inboxWaitFor(inbox),
    auth,
    log,
    secret: (name: string) => secrets.get(name),
    storeSecret: (name: string, value: string) => secrets.set(name, value),
    ...(options.maxWaitMs !== undefined ? { maxWaitMs: options.maxWaitMs } : {}),
  };
  let started: StartedMcp;
  try {
    started = startMcp(config, loadOptions);
  } catch (error) {
    configError = (error as Error).message;
    started = startMcp({}, loadOptions);
  }
  const { source, ready } = started;
  // One server's event recomputes that server's view only, and the list goes out at most every
  // SERVERS_EVENT_INTERVAL_MS however many servers change: start-up with thousands of servers
  // must not cost each event a walk (and a scrub) of all of them.
  const serverViews = new ServerViews({
    source,
    configError: () => (supervisor ? supervisor.configError() : configError),
    scrub: (value) => secretScrubber.scrubValue(value),
    scrubGeneration: () => secretScrubber.generation,
  });
  const serversChanged = listChangeNotifier({
    intervalMs: SERVERS_EVENT_INTERVAL_MS,
    listening: () => events.listening("servers:changed"),
    send: () => events.emitScrubbed("servers:changed", serverViews.list()),
  });
  // From the start, so no kept view misses its server's event.
  const offServerEvents = source.on((event) => {
    if (event.type === "notification") return;
    if (event.type === "status") serverViews.invalidate(event.status.name);
    else serverViews.invalidateTools(event.server);
    serversChanged.changed();
  });
  // Servers from a config file are kept running and follow its edits (mcp/supervisor.ts).
  const supervisor = options.config === undefined && options.configPath
    ? superviseSource(source as RuntimeSource, { configPath: options.configPath, initialError: configError, log, onConfig: (c) => {
      registerConfiguredSecrets(c, secretScrubber);
      whoAnswers = readWhoAnswersLogged(c, log);
    }, onConfigError: () => serversChanged.changed() })
    : undefined;
  if (!options.connectInBackground) await ready;
  if (configError) log(`config: ${configError}`);

  const servers = (): ServerView[] => serverViews.list();

  const settings = new SettingsState(options.platform, secrets, () => token !== "");
  if (history) settings.setHistorySize(() => ({ bytes: history.store.sizeBytes(), budgetBytes: history.store.budgetBytes }));
  await settings.refreshSecretNames();

  const unsubscribes = [
    inbox.on((event) => events.emit("inbox:event", event)),
    offServerEvents,
    settings.on((value) => events.emit("settings:changed", value)),
    rules.on((list) => events.emit("rules:changed", list)),
  ];

  const handlers = scrubbedHandlers({
    ...(history?.handlers ?? historyOffHandlers()),
    ...rules.handlers,
    // Agents are connected to this run's listener; a literal token (Zed over HTTP, chosen) is the current one.
    ...createAgentsHandlers({ companionUrl: () => listeners[0]?.url, cli: () => cliCommand(), token: () => token, tokenKept: () => tokenPlace(secrets) }),
    ...createImportHandlers({
      configPath: options.config === undefined ? options.configPath : undefined,
      servers,
      secrets,
      settled: () => supervisor?.settled(),
    }),
    ...createServerManagementHandlers({
      supervisor,
      auth,
      configPath: options.config === undefined ? options.configPath : undefined,
      servers,
      source: () => source,
      keychain: secrets.available ? { set: async (name, value) => (await secrets.set(name, value), void (await settings.refreshSecretNames())) } : undefined,
    }),
    ...createHandlers({
    inbox,
    source: () => source,
    servers,
    settings,
    platform: options.platform,
    secrets,
    rotateToken: async () => {
      token = await rotateGatewayToken(secrets);
      log("gateway: token rotated; agents using the old one are refused from now on.");
      return token;
    },
    }),
  });

  const listeners: AttachedListener[] = [];
  let closing: Promise<void> | undefined;

  return {
    inbox,
    source,
    log,
    handlers,
    events: { on: events.on },
    servers,
    settings: () => settings.get(),
    pauseNotifications: (minutes) => {
      if (minutes === null) settings.pause(null);
      else if (minutes <= 0) settings.resume();
      else settings.pause(minutes);
    },
    token: () => token,
    whoAnswers: (agent) => whoAnswersFor(whoAnswers, agent),
    attachListener(listener) {
      listeners.push(listener);
      settings.setGatewayUrl(`${listener.url}/mcp`);
    },
    focus: (id) => events.emit("inbox:focus", { id }),
    ready,
    close() {
      // Pending questions are cancelled first (every view sees them withdrawn), then the MCP
      // clients and their children go, and the listener last so pages hear all of it.
      closing ??= (async () => {
        inbox.close();
        rules.close();
        // What the shutdown withdrew is written before the file closes.
        history?.close();
        try {
          await supervisor?.close();
          await source.close();
        } catch (error) {
          log(`mcp: close failed: ${(error as Error).message}`);
        }
        for (const unsubscribe of unsubscribes) unsubscribe();
        serversChanged.close();
        settings.close();
        await Promise.allSettled([...listeners.map((l) => l.close()), oauthCallback.close()]);
        events.clear();
      })();
      return closing;
    },
  };
}

/**
 * Every handler's result and error scrubbed before a page sees it: tool runs relay what servers
 * answered, inbox entries what they asked. The one exception is the rotated token, which the
 * person asked to see so they can give it to their agents.
 */
function scrubbedHandlers(handlers: Handlers): Handlers {
  const out = { ...handlers } as Record<string, (arg: unknown) => Promise<unknown>>;
  for (const [channel, handler] of Object.entries(handlers) as [string, (arg: unknown) => Promise<unknown>][]) {
    if (channel === "gateway:rotateToken") continue;
    out[channel] = async (arg) => {
      try {
        return secretScrubber.scrubValue(await handler(arg));
      } catch (error) {
        throw secretScrubber.scrubError(error);
      }
    };
  }
  return out as Handlers;
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
