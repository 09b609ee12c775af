// The page's shared state: what main told us (pending questions, servers, settings) plus what the
// person is looking at. One instance per page; components read it and call its actions.
import { outcomeTone, outcomeWord, type OutcomeTone } from "../../shared/words";
import type { CompanionApi, Envelope, Settings, AnswerInput } from "../../shared/contract";
import type { ServerView } from "../../shared/types";
import type { Answer, InboxEvent, PendingEntry, WithdrawReason } from "../../shared/types";
import type { RuleAddArg, RuleView } from "../../shared/rules";
import { rulesClient, type RuleResult, type RulesClient } from "./rules-client";

export type View = "inbox" | "servers" | "agents" | "history" | "settings";

/** Why the question the person was looking at went away without them answering it here. */
export interface Notice {
  id: string;
  kind: "answered" | "withdrawn";
  entry: PendingEntry;
  /** For a withdrawn question: why, as main said it (expired, the server stopped waiting, …). */
  reason?: WithdrawReason;
  message?: string;
}

export type Current = { entry: PendingEntry; notice?: undefined } | { notice: Notice; entry?: undefined } | null;

export interface ToolRun {
  status: "running" | "done" | "failed";
  /** The server the tool belongs to, so a question it asks can be tied back to this run. */
  server?: string;
  output?: string;
  isError?: boolean;
  error?: string;
}

/** What the page last sent, shown briefly so the person knows their answer went out. */
export interface Sent {
  id: string;
  /** "Accepted", "Declined", "Cancelled" (src/shared/words.ts). */
  text: string;
  /** Its colour: a "no" is never shown in the success frame. */
  tone: OutcomeTone;
  prompt: string;
  server?: string;
  /** The Servers-view run that asked this question, whose result is shown beside the note. */
  tool?: string;
}

/** How long a rule's note (answered by a rule, rule saved or refused) stays, unless held. */
export const RULE_NOTE_MS = 10_000;

/** A quiet note about a rule: it answered a question, was saved, refused, or removed by Undo. */
export interface RuleNote {
  /** One note per rule (or per refused attempt): a rule answering again refreshes its note. */
  key: string;
  kind: "answered" | "made" | "refused" | "removed";
  ruleId?: string;
  /** The rule's explanation, or main's refusal in words. */
  text: string;
  /** Questions this rule answered while its note was up. */
  count: number;
  at: number;
}

export interface StoreOptions {
  /** Called once per question that arrives while the page is open (browser notifications). */
  notify?: (entry: PendingEntry) => void;
  /**
   * True while the person is typing in a form (another question, a tool's arguments, a secret):
   * a new question then waits behind a banner instead of taking the screen and the focus.
   */
  typing?: () => boolean;
}

export class CompanionStore {
  // Raw state: main sends whole snapshots and we replace them, so deep proxies would only cost.
  pending = $state.raw<PendingEntry[]>([]);
  servers = $state.raw<ServerView[]>([]);
  settings = $state.raw<Settings | null>(null);
  view = $state<View>("inbox");
  /** The question pinned by the person (or by main's focus request); null shows the oldest. */
  shownId = $state<string | null>(null);
  notice = $state.raw<Notice | null>(null);
  /** The last few questions turned away without being shown, newest last. */
  refusals = $state.raw<string[]>([]);
  #refusalGroups = new Map<string, { who: string; reason: string; count: number }>();
  runs = $state<Record<string, ToolRun>>({});
  /** A question that arrived while the person was busy; the banner offers "Answer now". */
  arrival = $state.raw<PendingEntry | null>(null);
  /** Bumped when the shown question should take the keyboard focus (arrival, Answer now). */
  focusSeq = $state(0);
  sent = $state.raw<Sent | null>(null);
  /** Question id → the Servers-view run (tool name) that was running on its server when it came. */
  #questionRun = new Map<string, string>();
  connected = $state(true);
  /** Browser mode: main refuses this page's session (token rotated, companion restarted). */
  sessionRefused = $state(false);
  loadErrors = $state<string[]>([]);
  now = $state(Date.now());
  /** The person's rules, as main last sent them (Settings lists them; notes read explanations). */
  rules = $state.raw<RuleView[]>([]);
  ruleNotes = $state.raw<RuleNote[]>([]);
  /** True while the pointer or focus is on the notes: they stay until the person leaves them. */
  ruleNotesHeld = $state(false);
  #rulesClient: RulesClient | undefined;

  current: Current = $derived.by(() => {
    const id = this.shownId;
    if (id) {
      const entry = this.pending.find((e) => e.request.id === id);
      if (entry) return { entry };
      if (this.notice?.id === id) return { notice: this.notice };
    }
    const first = this.pending[0];
    return first ? { entry: first } : null;
  });

  /** Ids this page answered, so their `answered` event is not shown as "answered elsewhere". */
  #answeredHere = new Set<string>();

  constructor(
    readonly api: CompanionApi,
    private readonly options: StoreOptions = {},
  ) {}

  /** Subscribes to main's events, loads the first snapshot, and ticks the clock for "2 min ago". */
  start(): () => void {
    const offs = [
      this.api.on("inbox:event", (event) => this.#onInbox(event)),
      this.api.on("servers:changed", (servers) => {
        this.#seen.servers++;
        this.servers = servers;
      }),
      this.api.on("settings:changed", (settings) => {
        this.#seen.settings++;
        this.settings = settings;
      }),
      // The tray or a notification asked for this question: show it with the keyboard in it.
      this.api.on("inbox:focus", ({ id }) => this.open(id)),
      this.api.on("rules:changed", (rules) => {
        this.#seen.rules++;
        this.rules = rules;
      }),
    ];
    // Once a second: the Inbox shows how long each question has left before it expires.
    const tick = setInterval(() => (this.now = Date.now()), 1_000);
    void this.load();
    return () => {
      for (const off of offs) off();
      clearInterval(tick);
    };
  }

  /**
   * Events seen per kind. A snapshot asked for before an event may arrive after it; counting lets
   * the snapshot lose to what main said since, instead of putting back an older state.
   */
  #seen = { servers: 0, settings: 0, rules: 0 };
  /** While a snapshot of the Inbox is on its way: ids added and settled by events meanwhile. */
  #inboxSince: { added: Set<string>; settled: Set<string> } | null = null;

  /** Fetches everything again; also what a reconnecting page does. */
  async load(): Promise<void> {
    const seen = { ...this.#seen };
    const since = (this.#inboxSince = { added: new Set<string>(), settled: new Set<string>() });
    const errors: string[] = [];
    // Each part lands as soon as it comes: a question must not wait for the settings to show.
    const inbox = this.api["inbox:list"]().then((result) => {
      if (this.#inboxSince === since) this.#inboxSince = null;
      if (!result.ok) return errors.push(`Questions: ${result.error.message}`);
      const fresh = result.value.filter((e) => !since.settled.has(e.request.id));
      const ids = new Set(fresh.map((e) => e.request.id));
      const arrived = this.pending.filter((e) => since.added.has(e.request.id) && !ids.has(e.request.id));
      this.pending = [...fresh, ...arrived].sort((a, b) => a.receivedAt - b.receivedAt);
    });
    const servers = this.api["servers:list"]().then((result) => {
      if (!result.ok) return errors.push(`Servers: ${result.error.message}`);
      if (this.#seen.servers === seen.servers) this.servers = result.value;
    });
    const settings = this.api["settings:get"]().then((result) => {
      if (!result.ok) return errors.push(`Settings: ${result.error.message}`);
      if (this.#seen.settings === seen.settings) this.settings = result.value;
    });
    await Promise.all([inbox, servers, settings]);
    this.loadErrors = errors;
    void this.loadRules();
  }

  get rulesApi(): RulesClient {
    return (this.#rulesClient ??= rulesClient(this.api));
  }

  async loadRules(): Promise<void> {
    const seen = this.#seen.rules;
    try {
      const result = await this.api["rules:list"]();
      if (result.ok && this.#seen.rules === seen) this.rules = result.value;
    } catch {
      // A page without rules (older companion) simply lists none.
    }
  }

  /** Makes a rule; the outcome is a note, since the question (and its form) leaves right after. */
  async makeRule(arg: RuleAddArg): Promise<RuleResult<RuleView>> {
    const result = await this.rulesApi.add(arg);
    if (result.ok) {
      const rule = result.value;
      if (!this.rules.some((r) => r.id === rule.id)) this.rules = [...this.rules, rule];
      this.#note({ key: rule.id, kind: "made", ruleId: rule.id, text: rule.explanation });
    } else this.#note({ key: `refused-${arg.questionId}`, kind: "refused", text: result.message });
    return result;
  }

  /** Settings' Remove and the notes' Undo. Returns main's refusal in words, or null. */
  async removeRule(id: string): Promise<string | null> {
    const result = await this.rulesApi.remove(id);
    if (!result.ok) return result.message;
    this.rules = this.rules.filter((r) => r.id !== id);
    if (this.ruleNotes.some((n) => n.ruleId === id)) this.#note({ key: id, kind: "removed", ruleId: id, text: "" });
    return null;
  }

  /** Notes young enough to show (all of them while held). */
  get shownRuleNotes(): RuleNote[] {
    return this.ruleNotes.filter((n) => this.ruleNotesHeld || this.now - n.at < RULE_NOTE_MS);
  }

  dismissRuleNote(key: string): void {
    this.ruleNotes = this.ruleNotes.filter((n) => n.key !== key);
  }

  /** Holding keeps notes up; letting go gives each the full time again. */
  holdRuleNotes(held: boolean): void {
    this.ruleNotesHeld = held;
    if (!held) {
      const at = Date.now();
      this.now = at;
      this.ruleNotes = this.ruleNotes.map((n) => ({ ...n, at }));
    }
  }

  #note(note: Omit<RuleNote, "count" | "at">, counts = false): void {
    const old = this.ruleNotes.find((n) => n.key === note.key);
    const count = counts ? (old?.kind === "answered" && this.now - old.at < RULE_NOTE_MS ? old.count + 1 : 1) : 1;
    const at = Date.now();
    this.now = at;
    this.ruleNotes = [...this.ruleNotes.filter((n) => n.key !== note.key), { ...note, count, at }].slice(-5);
  }

  /** A rule answered question `id`: say so quietly, with the rule's explanation and an Undo. */
  async #ruleAnswered(ruleId: string): Promise<void> {
    const explanation = () => this.rules.find((r) => r.id === ruleId)?.explanation;
    this.#note({ key: ruleId, kind: "answered", ruleId, text: explanation() ?? "" }, true);
    if (explanation() !== undefined) return;
    await this.loadRules();
    const text = explanation();
    if (text !== undefined) this.ruleNotes = this.ruleNotes.map((n) => (n.key === ruleId && n.kind === "answered" ? { ...n, text } : n));
  }

  show(id: string | null): void {
    this.view = "inbox";
    this.shownId = id;
    if (id && this.arrival?.request.id === id) this.arrival = null;
  }

  /** Shows a question and moves the keyboard focus into it. */
  open(id: string): void {
    this.show(id);
    this.focusSeq += 1;
  }

  /** The banner's question, unless it is the one on screen already (the one before it was answered). */
  get pendingArrival(): PendingEntry | null {
    const arrival = this.arrival;
    if (!arrival) return null;
    return this.view === "inbox" && this.current?.entry?.request.id === arrival.request.id ? null : arrival;
  }

  dismissArrival(): void {
    this.arrival = null;
  }

  dismissRefusals(): void {
    this.#refusalGroups.clear();
    this.refusals = [];
  }

  dismissSent(): void {
    this.sent = null;
  }

  /** Is a pending question on screen now (the person is reading or answering it)? */
  get showingQuestion(): boolean {
    return this.view === "inbox" && !!this.current?.entry;
  }

  /** The run from the Servers view that asked question `id`, if the page can tell. */
  runFor(id: string): string | undefined {
    return this.#questionRun.get(id);
  }

  /** Cancels every pending question of `server`, one answer each, as its own Cancel would. */
  async cancelAllFrom(server: string): Promise<void> {
    const ids = this.pending.filter((e) => e.source.server === server).map((e) => e.request.id);
    await Promise.all(ids.map((id) => this.answer({ id, ok: false, reason: "cancelled" })));
    this.sent = ids.length > 1 ? { id: ids[0]!, text: `Cancelled ${ids.length} questions`, tone: "ended", prompt: `All questions from ${server}`, server } : this.sent;
  }

  dismissNotice(): void {
    this.notice = null;
    this.shownId = null;
  }

  #onInbox(event: InboxEvent): void {
    if (event.type === "added") {
      const id = event.entry.request.id;
      this.#inboxSince?.added.add(id);
      if (this.pending.some((e) => e.request.id === id)) return;
      // A rule the person set answers it at once (its "answered" follows): nothing to show or open.
      if (event.byRule) return;
      // Asked before the list grows: the new question itself must not count as one on screen.
      const busy = this.showingQuestion || (this.options.typing?.() ?? false);
      this.pending = [...this.pending, event.entry];
      const run = this.#runOn(event.entry);
      if (run) this.#questionRun.set(id, run);
      // An agent answering it itself: listed (the person may step in), but nobody is called for it.
      if (event.entry.answering) return;
      if (!this.settings?.notificationsPaused) this.options.notify?.(event.entry);
      this.#arrive(event.entry, busy);
      return;
    }
    if (event.type === "answered" && event.by === "rule" && event.ruleId) void this.#ruleAnswered(event.ruleId);
    if (event.type === "answered" || event.type === "withdrawn") {
      const id = event.id;
      this.#inboxSince?.settled.add(id);
      const displayed = this.view === "inbox" && this.current?.entry?.request.id === id;
      const entry = this.pending.find((e) => e.request.id === id);
      this.pending = this.pending.filter((e) => e.request.id !== id);
      if (this.arrival?.request.id === id) this.arrival = null;
      if (this.#answeredHere.delete(id) && event.type === "answered") return;
      // Keep the person on the question they were reading and say what happened to it.
      if (entry && displayed) {
        this.notice = event.type === "withdrawn" ? { id, kind: event.type, entry, reason: event.reason, message: event.message } : { id, kind: event.type, entry };
        this.shownId = id;
      }
      return;
    }
    // A refused question was never pending (a flooding server past its cap, a duplicate id): say so
    // once, in the inbox, so the person knows questions were turned away on their behalf.
    // A flood is one line with a count, not a screenful of copies.
    const who = event.source.server ?? event.source.agent ?? "an agent";
    const key = `${who}\u0000${event.reason}`;
    const group = this.#refusalGroups.get(key) ?? { who, reason: event.reason, count: 0 };
    group.count += 1;
    this.#refusalGroups.delete(key);
    this.#refusalGroups.set(key, group);
    while (this.#refusalGroups.size > 5) this.#refusalGroups.delete(this.#refusalGroups.keys().next().value!);
    this.refusals = [...this.#refusalGroups.values()].map((g) =>
      g.count === 1 ? `A question from ${g.who} was cancelled at once: ${g.reason}.` : `${g.count} questions from ${g.who} were cancelled at once: ${g.reason}.`,
    );
  }

  /** Sends an answer; the result envelope carries main's validation errors when it refuses. */
  async answer(input: AnswerInput): Promise<Envelope<Answer>> {
    const id = input.id;
    this.#answeredHere.add(id);
    // Read now: main's `answered` event may remove it from the list before the reply arrives.
    const answered = this.pending.find((e) => e.request.id === id);
    const result = await this.api["inbox:answer"](input);
    if (result.ok) {
      const entry = answered;
      this.pending = this.pending.filter((e) => e.request.id !== id);
      if (this.shownId === id) this.shownId = null;
      if (this.arrival?.request.id === id) this.arrival = null;
      this.sent = {
        id,
        ...sentText(input, entry?.request.kind),
        prompt: entry?.request.prompt ?? "",
        server: entry?.source.server,
        tool: this.#questionRun.get(id),
      };
    } else {
      this.#answeredHere.delete(id);
      if (result.error.code === "unknown-id" || result.error.code === "already-answered") {
        // Someone else got there first; show that rather than a form that can no longer be sent.
        const entry = this.pending.find((e) => e.request.id === id);
        this.pending = this.pending.filter((e) => e.request.id !== id);
        if (entry) {
          this.notice = { id, kind: "answered", entry };
          this.shownId = id;
        }
      }
    }
    return result;
  }

  /** Runs a tool without blocking the page: its questions arrive in the Inbox meanwhile. */
  async runTool(tool: string, args: Record<string, unknown>): Promise<void> {
    const server = this.servers.flatMap((s) => s.tools).find((t) => t.name === tool)?.server;
    this.runs[tool] = { status: "running", server };
    const result = await this.api["tools:run"]({ tool, args });
    this.runs[tool] = result.ok
      ? { status: "done", server, output: result.value.output, isError: result.value.isError }
      : { status: "failed", server, error: result.error.message };
  }

  /**
   * The tool whose run asked this question: the one the entry names, else the one run running on
   * its server (with two or more running there the page cannot tell, and says nothing).
   */
  #runOn(entry: PendingEntry): string | undefined {
    const server = entry.source.server;
    if (!server) return undefined;
    const running = Object.entries(this.runs).filter(([, run]) => run.status === "running" && run.server === server);
    if (entry.source.tool) return running.find(([name]) => name.endsWith(`_${entry.source.tool}`))?.[0];
    return running.length === 1 ? running[0]![0] : undefined;
  }

  /**
   * A new question comes to the person: it opens and takes the focus, unless they are typing in a
   * form or already have a question on screen; then a banner offers "Answer now" instead.
   */
  #arrive(entry: PendingEntry, busy: boolean): void {
    if (busy) {
      this.arrival = entry;
      return;
    }
    this.sent = null;
    this.open(entry.request.id);
  }

  /** Applies a settings action's result; returns the error message when main refused. */
  async updateSettings(action: Promise<Envelope<Settings>>): Promise<string | null> {
    const result = await action;
    if (result.ok) {
      this.settings = result.value;
      return null;
    }
    return result.error.message;
  }
}

/** "just now", "3 min ago", "2 h ago", or a date for older questions. */
export function relativeTime(then: number, now: number): string {
  const seconds = Math.max(0, Math.round((now - then) / 1000));
  if (seconds < 45) return "just now";
  const minutes = Math.round(seconds / 60);
  if (minutes < 60) return `${minutes} min ago`;
  const hours = Math.round(minutes / 60);
  if (hours < 24) return `${hours} h ago`;
  return new Date(then).toLocaleDateString();
}

/** "github" or "github for claude-code"; who asks, in one phrase. */
export function askerText(source: { server?: string; agent?: string }): string {
  const agents = agentText(source.agent);
  // An agent's own question (POST /v1/requests) has no server: the agent is the one asking.
  if (!source.server) return agents || "an agent";
  return agents ? `${source.server} for ${agents}` : source.server;
}

/**
 * The agent(s) in honest words. Main names every agent with a call in flight ("cursor,
 * claude-code") when a pushed question cannot be tied to one call: that is one of them, not all.
 */
export function agentText(agent: string | undefined): string {
  if (!agent) return "";
  const names = agent
    .split(",")
    .map((n) => n.trim())
    .filter(Boolean);
  if (names.length <= 1) return names[0] ?? "";
  return `${names.slice(0, -1).join(", ")} or ${names[names.length - 1]}`;
}

/** "expires in 45 s", "expires in 4 min", "expired"; "" when the question does not expire. */
export function expiryText(expiresAt: string | undefined, now: number): string {
  if (!expiresAt) return "";
  const at = Date.parse(expiresAt);
  if (!Number.isFinite(at)) return "";
  const seconds = Math.round((at - now) / 1000);
  if (seconds <= 0) return "expiring";
  if (seconds < 60) return `expires in ${seconds} s`;
  const minutes = Math.floor(seconds / 60);
  if (minutes < 60) return `expires in ${minutes} min`;
  const hours = Math.floor(minutes / 60);
  if (hours < 48) return `expires in ${hours} h`;
  return `expires ${new Date(at).toLocaleDateString()}`;
}

function sentText(input: AnswerInput, kind: string | undefined): { text: string; tone: OutcomeTone } {
  const outcome = input.ok ? "accepted" : input.reason === "declined" ? "declined" : "cancelled";
  return { text: outcomeWord(outcome, kind), tone: outcomeTone(outcome) };
}
