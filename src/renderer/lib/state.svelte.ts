// The page's shared state: what main told us (pending questions, servers, settings) plus what the
// person is looking at. One instance per page; components read it and call its actions.
import type { CompanionApi, Envelope, ServerView, Settings, AnswerInput } from "../../shared/contract";
import type { Answer, InboxEvent, PendingEntry, WithdrawReason } from "../../shared/types";

export type View = "inbox" | "servers" | "settings";

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
  output?: string;
  isError?: boolean;
  error?: string;
}

export interface StoreOptions {
  /** Called once per question that arrives while the page is open (browser notifications). */
  notify?: (entry: PendingEntry) => void;
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
  runs = $state<Record<string, ToolRun>>({});
  connected = $state(true);
  loadErrors = $state<string[]>([]);
  now = $state(Date.now());

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
      this.api.on("servers:changed", (servers) => (this.servers = servers)),
      this.api.on("settings:changed", (settings) => (this.settings = settings)),
      this.api.on("inbox:focus", ({ id }) => this.show(id)),
    ];
    const tick = setInterval(() => (this.now = Date.now()), 15_000);
    void this.load();
    return () => {
      for (const off of offs) off();
      clearInterval(tick);
    };
  }

  /** Fetches everything again; also what a reconnecting page does. */
  async load(): Promise<void> {
    const [inbox, servers, settings] = await Promise.all([
      this.api["inbox:list"](),
      this.api["servers:list"](),
      this.api["settings:get"](),
    ]);
    const errors: string[] = [];
    if (inbox.ok) this.pending = [...inbox.value].sort((a, b) => a.receivedAt - b.receivedAt);
    else errors.push(`Questions: ${inbox.error.message}`);
    if (servers.ok) this.servers = servers.value;
    else errors.push(`Servers: ${servers.error.message}`);
    if (settings.ok) this.settings = settings.value;
    else errors.push(`Settings: ${settings.error.message}`);
    this.loadErrors = errors;
  }

  show(id: string | null): void {
    this.view = "inbox";
    this.shownId = id;
  }

  dismissNotice(): void {
    this.notice = null;
    this.shownId = null;
  }

  #onInbox(event: InboxEvent): void {
    if (event.type === "added") {
      const id = event.entry.request.id;
      if (this.pending.some((e) => e.request.id === id)) return;
      this.pending = [...this.pending, event.entry];
      if (!this.settings?.notificationsPaused) this.options.notify?.(event.entry);
      return;
    }
    if (event.type === "answered" || event.type === "withdrawn") {
      const id = event.id;
      const displayed = this.view === "inbox" && this.current?.entry?.request.id === id;
      const entry = this.pending.find((e) => e.request.id === id);
      this.pending = this.pending.filter((e) => e.request.id !== id);
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
    const who = event.source.server ?? event.source.agent ?? "an agent";
    this.refusals = [...this.refusals.slice(-4), `A question from ${who} was cancelled at once: ${event.reason}.`];
  }

  /** Sends an answer; the result envelope carries main's validation errors when it refuses. */
  async answer(input: AnswerInput): Promise<Envelope<Answer>> {
    const id = input.id;
    this.#answeredHere.add(id);
    const result = await this.api["inbox:answer"](input);
    if (result.ok) {
      this.pending = this.pending.filter((e) => e.request.id !== id);
      if (this.shownId === id) this.shownId = null;
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
    this.runs[tool] = { status: "running" };
    const result = await this.api["tools:run"]({ tool, args });
    this.runs[tool] = result.ok
      ? { status: "done", output: result.value.output, isError: result.value.isError }
      : { status: "failed", error: result.error.message };
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
  const server = source.server ?? "an agent";
  return source.agent ? `${server} for ${source.agent}` : server;
}
