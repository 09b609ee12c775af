// The question on screen and what the person is told about questions: the one they pinned (or
// the oldest), why it went away if it did, a new one that waits behind a banner while they are
// busy, and what their last answer said.
import { outcomeTone, outcomeWord, type OutcomeTone } from "../../shared/words";
import type { AnswerInput, Envelope } from "../../shared/contract";
import type { Answer, InboxEvent, PendingEntry, WithdrawReason } from "../../shared/types";
import type { Call } from "./api";
import type { InboxState } from "./inbox.svelte";
import type { Nav } from "./nav.svelte";
import type { ToolRuns } from "./tool-runs.svelte";

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

type Settled = Extract<InboxEvent, { type: "answered" | "withdrawn" }>;

export class QuestionState {
  /** The question pinned by the person (or by main's focus request); null shows the oldest. */
  shownId = $state<string | null>(null);
  notice = $state.raw<Notice | null>(null);
  /** A question that arrived while the person was busy; the banner offers "Answer now". */
  arrival = $state.raw<PendingEntry | null>(null);
  /** Bumped when the shown question should take the keyboard focus (arrival, Answer now). */
  focusSeq = $state(0);
  sent = $state.raw<Sent | null>(null);
  /** Ids this page answered, so their `answered` event is not shown as "answered elsewhere". */
  #answeredHere = new Set<string>();

  current: Current = $derived.by(() => {
    const id = this.shownId;
    if (id) {
      const entry = this.inbox.find(id);
      if (entry) return { entry };
      if (this.notice?.id === id) return { notice: this.notice };
    }
    const first = this.inbox.pending[0];
    return first ? { entry: first } : null;
  });

  constructor(
    private readonly call: Call,
    private readonly nav: Nav,
    private readonly inbox: InboxState,
    private readonly runs: ToolRuns,
  ) {}

  show(id: string | null): void {
    this.nav.go("inbox");
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
    return this.displays(arrival.request.id) ? null : arrival;
  }

  /** Is a pending question on screen now (the person is reading or answering it)? */
  get showingQuestion(): boolean {
    return this.nav.view === "inbox" && !!this.current?.entry;
  }

  /** Is question `id` the one on screen now? */
  displays(id: string): boolean {
    return this.nav.view === "inbox" && this.current?.entry?.request.id === id;
  }

  dismissArrival(): void {
    this.arrival = null;
  }

  dismissSent(): void {
    this.sent = null;
  }

  dismissNotice(): void {
    this.notice = null;
    this.shownId = null;
  }

  /**
   * A new question comes to the person: it opens and takes the focus, unless they are typing in a
   * form or already have a question on screen; then a banner offers "Answer now" instead.
   */
  arrive(entry: PendingEntry, busy: boolean): void {
    if (busy) {
      this.arrival = entry;
      return;
    }
    this.sent = null;
    this.open(entry.request.id);
  }

  /**
   * Main settled question `entry` (answered or withdrawn; `displayed` if it was on screen): keep
   * the person on the question they were reading and say what happened to it, unless this page
   * answered it itself.
   */
  settled(event: Settled, entry: PendingEntry | undefined, displayed: boolean): void {
    const id = event.id;
    if (this.arrival?.request.id === id) this.arrival = null;
    if (this.#answeredHere.delete(id) && event.type === "answered") return;
    if (entry && displayed) {
      this.notice = event.type === "withdrawn" ? { id, kind: event.type, entry, reason: event.reason, message: event.message } : { id, kind: event.type, entry };
      this.shownId = id;
    }
  }

  /** Sends an answer; the result envelope carries main's validation errors when it refuses. */
  async answer(input: AnswerInput): Promise<Envelope<Answer>> {
    const id = input.id;
    this.#answeredHere.add(id);
    // Read now: main's `answered` event may remove it from the list before the reply arrives.
    const entry = this.inbox.find(id);
    const result = await this.call("inbox:answer", input);
    if (result.ok) {
      this.inbox.remove(id);
      if (this.shownId === id) this.shownId = null;
      if (this.arrival?.request.id === id) this.arrival = null;
      this.sent = {
        id,
        ...sentText(input, entry?.request.kind),
        prompt: entry?.request.prompt ?? "",
        server: entry?.source.server,
        tool: this.runs.runFor(id),
      };
    } else {
      this.#answeredHere.delete(id);
      if (result.error.code === "unknown-id" || result.error.code === "already-answered") {
        // Someone else got there first; show that rather than a form that can no longer be sent.
        const gone = this.inbox.remove(id);
        if (gone) {
          this.notice = { id, kind: "answered", entry: gone };
          this.shownId = id;
        }
      }
    }
    return result;
  }

  /** Cancels every pending question of `server`, one answer each, as its own Cancel would. */
  async cancelAllFrom(server: string): Promise<void> {
    const ids = this.inbox.pending.filter((e) => e.source.server === server).map((e) => e.request.id);
    await Promise.all(ids.map((id) => this.answer({ id, ok: false, reason: "cancelled" })));
    this.sent = ids.length > 1 ? { id: ids[0]!, text: `Cancelled ${ids.length} questions`, tone: "ended", prompt: `All questions from ${server}`, server } : this.sent;
  }
}

function sentText(input: AnswerInput, kind: string | undefined): { text: string; tone: OutcomeTone } {
  const outcome = input.ok ? "accepted" : input.reason === "declined" ? "declined" : "cancelled";
  return { text: outcomeWord(outcome, kind), tone: outcomeTone(outcome) };
}
