// One system notification per new question, summarised when one source floods, silent when
// paused. The native Notification comes in through a factory so the logic runs under fake timers.
import { isSignIn } from "../../shared/words";
import type { PendingEntry } from "../../shared/types";
import { askerLabel, truncate } from "./labels";

export interface NotificationLike {
  on(event: "click", listener: () => void): unknown;
  show(): void;
  close(): void;
  /** The person pressed action button `index` (macOS, Windows); absent where there are none. */
  onAction?(listener: (index: number) => void): void;
}

export interface NotificationContent {
  title: string;
  body: string;
  /** No sound: for what the person already decided (a rule's answer), not for a new question. */
  silent?: boolean;
  /** Button labels, in order (only where the system shows them: macOS, Windows). */
  actions?: string[];
}

export interface NotificationServiceOptions {
  create(content: NotificationContent): NotificationLike;
  isPaused(): boolean;
  /** Opens the window on one question. */
  openQuestion(id: string): void;
  /** Opens the window on the inbox. */
  openWindow(): void;
  /**
   * Removes a rule: the "Undo rule" button on a rule's quiet note. Offered only with
   * `actionsSupported` (macOS, Windows); elsewhere a click opens the window, whose own note has Undo.
   */
  undoRule?(ruleId: string): void;
  /** The system shows notification buttons (Electron: macOS and Windows, not Linux). */
  actionsSupported?: boolean;
  /** Questions from one source shown one by one within `windowMs`; more are summarised. */
  maxIndividual?: number;
  windowMs?: number;
  now?: () => number;
}

interface Burst {
  /** Arrival times within the window, newest last. */
  arrivals: number[];
  /** Questions held back for the next summary. */
  held: PendingEntry[];
  timer: ReturnType<typeof setTimeout> | null;
  /** When the last summary went out: a flood stays summarised until it has been quiet a window. */
  summarisedAt: number | null;
  label: string;
}

export function questionNotification(entry: PendingEntry): NotificationContent {
  const who = askerLabel(entry.source);
  const prompt = entry.request.prompt.trim();
  if (isSignIn(entry.request)) return { title: `${who} asks you to sign in`, body: truncate(prompt || "Open the Companion to sign in.", 200) };
  if (entry.request.kind === "authorization") {
    return { title: `${who} asks you to open a link`, body: truncate(prompt || "Open the Companion to review the link.", 200) };
  }
  return { title: `${who} asks`, body: truncate(prompt || "Open the Companion to answer.", 200) };
}

export const UNDO_RULE = "Undo rule";

/**
 * A rule the person set answered `entry`: quiet, and offers to undo the rule — an "Undo rule"
 * button where the system shows buttons (`canUndo`), else it says where to undo it.
 */
function ruleAnswerNotification(entry: PendingEntry | undefined, canUndo = false): NotificationContent {
  const prompt = entry?.request.prompt.trim();
  const what = entry ? `${askerLabel(entry.source)}${prompt ? `: ${truncate(prompt, 140)}` : ""}` : "A question";
  const stop = /[.!?…:]$/.test(what) ? "" : ".";
  if (canUndo) return { title: "Answered by your rule", body: `${what}${stop}`, silent: true, actions: [UNDO_RULE] };
  return { title: "Answered by your rule", body: `${what}${stop} Open the Companion to undo the rule (Settings, Rules).`, silent: true };
}

/** Questions a rule answers at once, kept from "added" to "answered" for the quiet note's words. */
const MAX_RULE_ASKED = 50;

/** The questions beyond the first few of a flood; the first ones were already shown one by one. */
function summaryNotification(label: string, count: number): NotificationContent {
  return { title: `${count} more ${count === 1 ? "question" : "questions"} from ${label}`, body: "Open the Companion to answer them." };
}

/** Flood grouping key: the server, else the agent (as the Inbox counts sources). */
function burstKey(entry: PendingEntry): string {
  return entry.source.server ? `server:${entry.source.server}` : `agent:${entry.source.agent ?? ""}`;
}

export class NotificationService {
  private readonly bursts = new Map<string, Burst>();
  /** Shown notifications by question id, closed when the question leaves the inbox. */
  private readonly shown = new Map<string, NotificationLike>();
  /** Questions a rule answers at once (added with byRule), until their "answered". */
  private readonly ruleAsked = new Map<string, PendingEntry>();
  /** When each rule's quiet note last went out: a rule answering a burst makes one note. */
  private readonly ruleNoted = new Map<string, number>();
  /**
   * Each rule's last quiet note, held so its buttons keep working (Electron drops the events of a
   * notification nobody references) and closed when the rule is undone or the app quits.
   */
  private readonly ruleNotes = new Map<string, NotificationLike>();
  private readonly maxIndividual: number;
  private readonly windowMs: number;
  private readonly now: () => number;

  constructor(private readonly options: NotificationServiceOptions) {
    this.maxIndividual = options.maxIndividual ?? 2;
    this.windowMs = options.windowMs ?? 5_000;
    this.now = options.now ?? Date.now;
  }

  /**
   * A question entered the inbox. `byRule`: a rule the person set answers it at once, so nobody
   * is asked and no notification goes out for it (ruleAnswered says it quietly instead).
   */
  added(entry: PendingEntry, byRule?: string): void {
    if (byRule !== undefined) {
      this.ruleAsked.set(entry.request.id, entry);
      if (this.ruleAsked.size > MAX_RULE_ASKED) this.ruleAsked.delete(this.ruleAsked.keys().next().value!);
      return;
    }
    if (this.options.isPaused()) return;
    // An agent is answering it itself (gateway "who answers": the agent): the Inbox lists it, but
    // calling the person away for a question already being answered would only interrupt them.
    if (entry.answering !== undefined) return;
    const key = burstKey(entry);
    const now = this.now();
    let burst = this.bursts.get(key);
    if (!burst) {
      burst = { arrivals: [], held: [], timer: null, summarisedAt: null, label: entry.source.server ?? entry.source.agent ?? "an agent" };
      this.bursts.set(key, burst);
    }
    burst.arrivals = burst.arrivals.filter((t) => now - t < this.windowMs);
    const afterSummary = burst.summarisedAt !== null && now - burst.summarisedAt < this.windowMs;
    const flooding = burst.timer !== null || afterSummary || burst.arrivals.length >= this.maxIndividual;
    burst.arrivals.push(now);
    if (!flooding) {
      this.showOne(entry);
      return;
    }
    burst.held.push(entry);
    if (burst.timer === null) {
      const b = burst;
      b.timer = setTimeout(() => this.flush(key, b), this.windowMs);
      (b.timer as { unref?: () => void }).unref?.();
    }
  }

  /**
   * A rule answered question `id`: one silent notification per rule within the window (a rule
   * answering a loop is one note, not a flood); none while paused. A click opens the window.
   */
  ruleAnswered(id: string, ruleId: string | undefined): void {
    const entry = this.ruleAsked.get(id);
    this.ruleAsked.delete(id);
    if (this.options.isPaused()) return;
    const now = this.now();
    const key = ruleId ?? "";
    const last = this.ruleNoted.get(key);
    if (last !== undefined && now - last < this.windowMs) return;
    for (const [k, at] of this.ruleNoted) if (now - at >= this.windowMs) this.ruleNoted.delete(k);
    this.ruleNoted.set(key, now);
    const undoRule = this.options.undoRule;
    const canUndo = ruleId !== undefined && undoRule !== undefined && this.options.actionsSupported === true;
    const notification = this.options.create(ruleAnswerNotification(entry, canUndo));
    notification.on("click", () => this.options.openWindow());
    if (canUndo) {
      notification.onAction?.((index) => {
        if (index !== 0) return;
        this.ruleNotes.delete(key);
        notification.close();
        undoRule(ruleId);
      });
    }
    this.ruleNotes.get(key)?.close();
    this.ruleNotes.set(key, notification);
    notification.show();
  }

  /** A question left the inbox (answered, withdrawn): its notification goes, and it is not summarised. */
  removed(id: string): void {
    this.ruleAsked.delete(id);
    this.shown.get(id)?.close();
    this.shown.delete(id);
    for (const burst of this.bursts.values()) burst.held = burst.held.filter((e) => e.request.id !== id);
  }

  /** Drops anything held back (pausing, quitting). */
  clear(): void {
    for (const burst of this.bursts.values()) if (burst.timer) clearTimeout(burst.timer);
    this.bursts.clear();
    this.ruleAsked.clear();
    this.ruleNoted.clear();
    for (const n of this.ruleNotes.values()) n.close();
    this.ruleNotes.clear();
    for (const n of this.shown.values()) n.close();
    this.shown.clear();
  }

  private flush(key: string, burst: Burst): void {
    burst.timer = null;
    const held = burst.held;
    burst.held = [];
    if (held.length === 0 || this.options.isPaused()) {
      if (burst.arrivals.every((t) => this.now() - t >= this.windowMs)) this.bursts.delete(key);
      return;
    }
    burst.summarisedAt = this.now();
    if (held.length === 1) {
      this.showOne(held[0]);
      return;
    }
    const notification = this.options.create(summaryNotification(burst.label, held.length));
    notification.on("click", () => this.options.openWindow());
    notification.show();
  }

  private showOne(entry: PendingEntry): void {
    const id = entry.request.id;
    const notification = this.options.create(questionNotification(entry));
    notification.on("click", () => this.options.openQuestion(id));
    this.shown.set(id, notification);
    notification.show();
  }
}
