// The page's stores, one per concern, made once per page and handed to the views: each owns its
// fields and changes them only through its methods. Here they are tied to main: its events go to
// the store they concern, and a (re)load fetches every snapshot again.
import type { CompanionApi, Envelope } from "../../shared/contract";
import type { InboxEvent, PendingEntry } from "../../shared/types";
import { caller, refusal, type Call } from "./api";
import { Clock } from "./clock.svelte";
import { ConnectionState } from "./connection.svelte";
import { FirstRunState } from "./first-run.svelte";
import { DevicesStore } from "./devices.svelte";
import { InboxState } from "./inbox.svelte";
import { Nav } from "./nav.svelte";
import { QuestionState } from "./question.svelte";
import { ReachState } from "./reach.svelte";
import { Refusals } from "./refusals.svelte";
import { RuleNotes } from "./rule-notes.svelte";
import { RulesState } from "./rules.svelte";
import { ServersState } from "./servers.svelte";
import { ServersViewState } from "./servers-view.svelte";
import { SettingsState } from "./settings.svelte";
import { TasksState } from "./tasks.svelte";
import { ToolRuns } from "./tool-runs.svelte";

export interface PageOptions {
  /** Called once per question that arrives while the page is open (browser notifications). */
  notify?: (entry: PendingEntry) => void;
  /**
   * True while the person is typing in a form (another question, a tool's arguments, a secret):
   * a new question then waits behind a banner instead of taking the screen and the focus.
   */
  typing?: () => boolean;
  /** A paired device: it may read and answer the Inbox and read History, nothing else. */
  device?: boolean;
}

export class Page {
  readonly call: Call;
  readonly clock = new Clock();
  readonly nav = new Nav();
  readonly connection = new ConnectionState();
  readonly settings: SettingsState;
  readonly servers: ServersState;
  readonly runs: ToolRuns;
  readonly inbox: InboxState;
  readonly question: QuestionState;
  readonly refusals = new Refusals();
  readonly ruleNotes: RuleNotes;
  readonly rules: RulesState;
  readonly firstRun: FirstRunState;
  /** The tasks servers run in the background, as main last sent them (the Tasks view). */
  readonly tasks: TasksState;
  /** Settings → When you are away (loaded when Settings opens). */
  readonly reach: ReachState;
  /** Settings → Answer from another device (the computer only). */
  readonly devices: DevicesStore;
  /** The Servers view's folds, search and drafts, kept while the person is in another view. */
  readonly serversView = new ServersViewState();
  /** Why the last load could not fetch a part ("Questions: …"), shown until the next load. */
  loadErrors = $state<string[]>([]);

  /** A paired device's page: Inbox and History only, no rules offered. */
  readonly device: boolean;

  constructor(
    private readonly api: CompanionApi,
    private readonly options: PageOptions = {},
  ) {
    this.device = options.device ?? false;
    const call = (this.call = caller(api));
    this.settings = new SettingsState(call);
    this.servers = new ServersState(call);
    this.runs = new ToolRuns(call, this.servers);
    this.inbox = new InboxState(call);
    this.question = new QuestionState(call, this.nav, this.inbox, this.runs);
    this.ruleNotes = new RuleNotes(this.clock);
    this.rules = new RulesState(call, this.ruleNotes);
    this.firstRun = new FirstRunState(call, this.servers, this.runs);
    this.tasks = new TasksState(call);
    this.reach = new ReachState(call);
    this.devices = new DevicesStore(call);
  }

  /** Subscribes to main's events, loads the first snapshot, and ticks the clock for "2 min ago". */
  start(): () => void {
    const offs = [
      this.api.on("inbox:event", (event) => this.#onInbox(event)),
      this.api.on("servers:changed", (servers) => this.servers.changed(servers)),
      this.api.on("settings:changed", (settings) => this.settings.changed(settings)),
      // The tray or a notification asked for this question: show it with the keyboard in it.
      this.api.on("inbox:focus", ({ id }) => this.question.open(id)),
      this.api.on("rules:changed", (rules) => this.rules.changed(rules)),
      this.api.on("tasks:changed", (list) => this.tasks.changed(list)),
      this.api.on("devices:changed", (state) => this.devices.changed(state)),
    ];
    // Once a second: the Inbox shows how long each question has left before it expires.
    const stopClock = this.clock.start();
    void this.load();
    return () => {
      for (const off of offs) off();
      stopClock();
    };
  }

  /** Fetches everything again; also what a reconnecting page does. */
  async load(): Promise<void> {
    const errors: string[] = [];
    const part = (label: string) => (result: Envelope<unknown>) => {
      if (!result.ok) errors.push(`${label}: ${refusal(result)}`);
    };
    if (this.options.device) {
      await this.inbox.load().then(part("Questions"));
      this.loadErrors = errors;
      return;
    }
    // Each part lands as soon as it comes: a question must not wait for the settings to show.
    await Promise.all([this.inbox.load().then(part("Questions")), this.servers.load().then(part("Servers")), this.settings.load().then(part("Settings"))]);
    this.loadErrors = errors;
    void this.rules.load();
    void this.tasks.load();
  }

  /** Browser mode: the link came up or went down; after a reconnect everything is fetched again. */
  linked(connected: boolean, reconnected: boolean): void {
    this.connection.linked(connected);
    if (reconnected) {
      void this.load();
      if (!this.options.device) void this.firstRun.load();
    }
  }

  #onInbox(event: InboxEvent): void {
    if (event.type === "added") {
      // Asked before the list grows: the new question itself must not count as one on screen.
      const busy = this.question.showingQuestion || (this.options.typing?.() ?? false);
      if (!this.inbox.added(event)) return;
      this.runs.asked(event.entry);
      // An agent answering it itself: listed (the person may step in), but nobody is called for it.
      if (event.entry.answering) return;
      if (!this.settings.notificationsPaused) this.options.notify?.(event.entry);
      this.question.arrive(event.entry, busy);
      return;
    }
    if (event.type === "refused") {
      this.refusals.add(event);
      return;
    }
    if (event.type === "answered" && event.by === "rule" && event.ruleId && !this.options.device) void this.rules.answered(event.ruleId);
    const displayed = this.question.displays(event.id);
    const entry = this.inbox.settled(event.id);
    this.question.settled(event, entry, displayed);
  }
}
