// The one resolver of the app. Every question — an MCP server's elicitation or an agent's posted
// Request — waits here until it is answered once, expires, is withdrawn, or the app closes.
import type { Answer, Asker, InboxEvent, PendingEntry, Request, WithdrawReason } from "../../shared/types";
import { checkFormAnswer } from "../../forms/check-answer";
import { jsonBoundsProblem } from "../base/json-bounds";
import { MAX_DECLINE_MESSAGE, MAX_PENDING_PER_SERVER, MAX_PENDING_TOTAL, MAX_PROMPT_LENGTH, MAX_URL_LENGTH } from "../../shared/limits";
import { InboxError, unknownQuestion } from "./errors";
import { AgentGone } from "./agent-gone";
import { asPlainObject } from "../../shared/unknown-value";

export interface InboxOptions {
  /** Pending questions one source may have at once; past it, new ones are cancelled at once. */
  maxPendingPerSource?: number;
  /** Pending questions in the whole Inbox, whoever asks; past it every new one is refused. */
  maxPendingTotal?: number;
  /** Clock, for tests. */
  now?: () => number;
  /** Rules the person set: consulted once per question right after it is admitted (setAutoAnswer too). */
  autoAnswer?: AutoAnswerHook;
}

/** A rule's answer to a question, given in the rule's name. */
export interface AutoAnswer {
  ok: boolean;
  data?: Record<string, unknown>;
  reason?: string;
  /** The rule that answers: carried on the "answered" event (`by: "rule"`) so it can be undone. */
  ruleId: string;
  /**
   * Told when the answer does not fit the question (the form changed under the rule): the rule
   * does not fire and the question waits for the person as usual.
   */
  onRefused?: (reason: string) => void;
}

/** Answers a just-admitted question by a rule, or leaves it to the person (undefined). */
export type AutoAnswerHook = (entry: PendingEntry) => AutoAnswer | undefined;

/** One flood cap a question counts against while it is pending. */
export interface Quota {
  /** What is counted, e.g. `server:github` or `token:ab12…`. */
  key: string;
  max: number;
  /** Who, in the refusal's words ("github already has 8 questions waiting"). */
  label: string;
}

export interface WaitOptions {
  source: Asker;
  /** Aborting withdraws the question from every view and resolves it `cancelled`. */
  signal?: AbortSignal;
  /**
   * The caps this question counts against, instead of the default one per source. A caller
   * that can choose its own name (an agent's X-Agent-Name) is counted by what it cannot choose.
   */
  quotas?: Quota[];
  /**
   * The agent answering this question itself: it is shown (entry.answering) and recorded as
   * usual; the agent's answer settles it (`by: "agent"`), undefined leaves it to the person.
   */
  answeredBy?: { agent: string; answer: Promise<Answer | undefined> };
}

/**
 * Why a question was refused on arrival: `busy` is a flood cap (try later), `invalid` a question
 * out of bounds, `expired` an expiresAt already past.
 */
export type RefusalKind = "closed" | "aborted" | "invalid" | "duplicate" | "expired" | "busy";

export type Admission =
  | { ok: true; answer: Promise<Answer> }
  /** `answer` is what a waitFor caller gets instead (cancelled, or expired). */
  | { ok: false; kind: RefusalKind; reason: string; answer: Answer };

interface Pending {
  entry: PendingEntry;
  resolve: (answer: Answer) => void;
  cleanup: () => void;
  keys: string[];
}

const SUMMARY_PROMPT = 200;
// setTimeout holds at most a signed 32-bit delay; longer expiries are re-armed when it fires.
const MAX_TIMER_MS = 2 ** 31 - 1;
/** The kinds an MCP elicitation becomes (mcp/elicit.ts); every other kind is an agent's own. */
const MCP_KINDS = new Set(["input", "authorization"]);

/** The source key the flood cap counts by: the server, else the agent. */
export function sourceKey(source: Asker): string {
  return source.server ? `server:${source.server}` : `agent:${source.agent ?? "agent"}`;
}

function sourceLabel(source: Asker): string {
  return source.server ?? source.agent ?? "agent";
}

/**
 * Why a question cannot be held and shown, or undefined. The backstop behind every entry point:
 * whatever a server or agent sends, a question that reaches the views can be serialised for them.
 */
function requestProblem(request: Request): string | undefined {
  if (typeof request !== "object" || request === null) return "it is not a question object";
  if (typeof request.id !== "string" || request.id === "") return "its id is not a non-empty string";
  if (typeof request.kind !== "string") return "its kind is not a string";
  if (typeof request.prompt !== "string") return "its prompt is not a string";
  if (request.prompt.length > MAX_PROMPT_LENGTH) return `its prompt is longer than ${MAX_PROMPT_LENGTH} characters`;
  if (request.url !== undefined && (typeof request.url !== "string" || request.url.length > MAX_URL_LENGTH)) {
    return `its url is not a string of at most ${MAX_URL_LENGTH} characters`;
  }
  const bounds = jsonBoundsProblem(request);
  return bounds ? `it is refused: ${bounds}` : undefined;
}

function idOf(request: Request): string {
  const id = (request as { id?: unknown } | null)?.id;
  return typeof id === "string" ? id : String(id);
}

/** What views may see of a refused, out-of-bounds question: its id, kind and the start of its prompt. */
function summary(request: Request): Request {
  const input: Partial<Record<keyof Request, unknown>> = asPlainObject(request);
  const text = (value: unknown, max: number) => (typeof value === "string" ? (value.length > max ? `${value.slice(0, max)}…` : value) : "");
  return { id: text(input.id, 256), kind: text(input.kind, 64), prompt: text(input.prompt, SUMMARY_PROMPT) };
}

export class Inbox {
  private readonly pending = new Map<string, Pending>();
  /** Pending count per source key, for the flood cap without scanning every question. */
  private readonly perSource = new Map<string, number>();
  private readonly listeners = new Set<(event: InboxEvent) => void>();
  private readonly maxPerSource: number;
  private readonly maxTotal: number;
  private readonly now: () => number;
  private closed = false;
  private autoAnswer: AutoAnswerHook | undefined;

  constructor(options: InboxOptions = {}) {
    this.maxPerSource = options.maxPendingPerSource ?? MAX_PENDING_PER_SERVER;
    this.maxTotal = options.maxPendingTotal ?? MAX_PENDING_TOTAL;
    this.now = options.now ?? Date.now;
    this.autoAnswer = options.autoAnswer;
  }

  /**
   * Sets (or, with undefined, clears) the hook where rules answer, for a composition root that
   * creates the rules after the Inbox. Returns a function that clears it again.
   */
  setAutoAnswer(hook: AutoAnswerHook | undefined): () => void {
    this.autoAnswer = hook;
    return () => {
      if (this.autoAnswer === hook) this.autoAnswer = undefined;
    };
  }

  /** The app's `waitFor`: resolves with the person's answer, or a cancel/expiry in their stead. */
  waitFor(request: Request, options: WaitOptions): Promise<Answer> {
    const admission = this.admit(request, options);
    return admission.ok ? admission.answer : Promise.resolve(admission.answer);
  }

  /**
   * Takes a question in, or says at once why not (the "refused" event tells every view). Callers
   * that can answer a refusal in their own terms (an HTTP 429) use this instead of waitFor.
   */
  admit(request: Request, options: WaitOptions): Admission {
    const source = { ...options.source };
    const refuse = (kind: RefusalKind, reason: string, answerReason = "cancelled"): Admission => {
      // An out-of-bounds question is not passed on to views, only a summary of it.
      this.emit({ type: "refused", request: kind === "invalid" ? summary(request) : request, source, reason });
      return { ok: false, kind, reason, answer: { id: idOf(request), ok: false, reason: answerReason } };
    };
    // First, so no other refusal passes an out-of-bounds question on to the views.
    const problem = requestProblem(request);
    if (problem) return refuse("invalid", problem);
    if (this.closed) return refuse("closed", "the companion is shutting down");
    if (options.signal?.aborted) return refuse("aborted", "the asker gave up before the question arrived");
    if (this.pending.has(request.id)) return refuse("duplicate", `a question with id "${request.id}" is already pending`);

    const expiresAt = request.expiresAt === undefined ? undefined : Date.parse(request.expiresAt);
    if (expiresAt !== undefined && (Number.isNaN(expiresAt) || expiresAt <= this.now())) {
      return refuse("expired", Number.isNaN(expiresAt) ? "its expiresAt is not a date" : "it expired before it arrived", "expired");
    }
    if (this.pending.size >= this.maxTotal) {
      return refuse("busy", `the Inbox already holds ${this.pending.size} questions (limit ${this.maxTotal})`);
    }
    const quotas = options.quotas ?? [{ key: sourceKey(source), max: this.maxPerSource, label: sourceLabel(source) }];
    for (const quota of quotas) {
      const held = this.perSource.get(quota.key) ?? 0;
      if (held >= quota.max) return refuse("busy", `${quota.label} already has ${held} questions waiting (limit ${quota.max})`);
    }
    const keys = quotas.map((q) => q.key);
    return { ok: true, answer: this.hold(request, source, keys, expiresAt, options.signal, options.answeredBy) };
  }

  private hold(
    request: Request,
    source: Asker,
    keys: string[],
    expiresAt: number | undefined,
    signal: AbortSignal | undefined,
    answeredBy?: WaitOptions["answeredBy"],
  ): Promise<Answer> {
    return new Promise<Answer>((resolve) => {
      const entry: PendingEntry = { request, source, receivedAt: this.now(), ...(answeredBy ? { answering: answeredBy.agent } : {}) };
      let timer: ReturnType<typeof setTimeout> | undefined;
      const onAbort = () => {
        const why = signal?.reason;
        const message = why instanceof Error ? why.message : typeof why === "string" ? why : "the asker stopped waiting";
        // The agent it was asked for went away: said as such, not as the server giving up.
        this.withdraw(request.id, why instanceof AgentGone ? "agent-gone" : "aborted", { id: request.id, ok: false, reason: "cancelled" }, message);
      };
      const armExpiry = () => {
        if (expiresAt === undefined) return;
        const left = expiresAt - this.now();
        if (left <= 0) {
          this.withdraw(request.id, "expired", { id: request.id, ok: false, reason: "expired" }, "the question expired");
          return;
        }
        timer = setTimeout(armExpiry, Math.min(left, MAX_TIMER_MS));
        timer.unref?.();
      };
      const cleanup = () => {
        if (timer) clearTimeout(timer);
        signal?.removeEventListener("abort", onAbort);
      };
      this.pending.set(request.id, { entry, resolve, cleanup, keys });
      for (const key of keys) this.perSource.set(key, (this.perSource.get(key) ?? 0) + 1);
      signal?.addEventListener("abort", onAbort, { once: true });
      armExpiry();
      // Decided before "added" so views can tell at once that a rule answers it (no notification,
      // no opening it); "added" still comes first, so views and history see the question before
      // its answer.
      const ruled = this.ruleAnswer(entry);
      this.emit(ruled ? { type: "added", entry, byRule: ruled.ruleId } : { type: "added", entry });
      if (ruled && this.pending.has(request.id)) {
        this.settle(request.id, ruled.answer);
        this.emit({ type: "answered", id: request.id, answer: ruled.answer, by: "rule", ruleId: ruled.ruleId });
      }
      answeredBy?.answer.then(
        (agentAnswer) => {
          if (!agentAnswer || !this.pending.has(request.id)) return;
          // The agent's answer went to the server as the agent gave it; what is kept and shown
          // of it must be within bounds like everything else here.
          const answer: Answer = jsonBoundsProblem(agentAnswer) ? { id: request.id, ok: agentAnswer.ok, ...(agentAnswer.reason ? { reason: agentAnswer.reason } : {}) } : { ...agentAnswer, id: request.id };
          this.settle(request.id, answer);
          this.emit({ type: "answered", id: request.id, answer, by: "agent" });
        },
        () => {},
      );
    });
  }

  /**
   * A rule's answer, prepared and checked as a person's would be; an answer that no longer fits
   * leaves the question to the person. A throwing hook is treated as no rule.
   */
  private ruleAnswer(entry: PendingEntry): { answer: Answer; ruleId: string } | undefined {
    const hook = this.autoAnswer;
    if (!hook) return undefined;
    let auto: AutoAnswer | undefined;
    try {
      auto = hook(entry);
    } catch {
      return undefined;
    }
    if (!auto || typeof auto.ok !== "boolean" || typeof auto.ruleId !== "string") return undefined;
    try {
      const answer = this.prepare(entry.request, { ok: auto.ok, ...(auto.data !== undefined ? { data: auto.data } : {}), ...(auto.reason !== undefined ? { reason: auto.reason } : {}) });
      return { answer, ruleId: auto.ruleId };
    } catch (error) {
      try {
        auto.onRefused?.((error as Error).message);
      } catch {
        // The rule's bookkeeping must not keep the question from the person.
      }
      return undefined;
    }
  }

  /** Pending questions in arrival order. */
  list(): PendingEntry[] {
    return [...this.pending.values()].map((p) => p.entry);
  }

  get(id: string): PendingEntry | undefined {
    return this.pending.get(id)?.entry;
  }

  /**
   * Answers question `id` once. Form answers are prepared (defaults, cleared fields, numbers) and
   * validated against the question's schema; a refused answer throws and leaves it pending.
   * Returns the answer as it was delivered.
   */
  answer(id: string, input: Omit<Answer, "id"> & { id?: string }): Answer {
    const pending = this.pending.get(id);
    if (!pending) throw unknownQuestion(id);
    if (input.id !== undefined && input.id !== id) {
      throw new InboxError("invalid-answer", `The answer is for "${input.id}", not "${id}".`);
    }
    if (typeof input.ok !== "boolean") {
      throw new InboxError("invalid-answer", "An answer needs ok: true or false.");
    }
    const answer = this.prepare(pending.entry.request, input);
    this.settle(id, answer);
    this.emit({ type: "answered", id, answer });
    return answer;
  }

  on(listener: (event: InboxEvent) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Answers everything still pending `cancelled` and refuses new questions. */
  close(): void {
    this.closed = true;
    for (const id of [...this.pending.keys()]) {
      this.withdraw(id, "closed", { id, ok: false, reason: "cancelled" }, "the companion is shutting down");
    }
  }

  private prepare(request: Request, input: Omit<Answer, "id">): Answer {
    if (!input.ok) {
      const reason = typeof input.reason === "string" && input.reason !== "" ? input.reason : "cancelled";
      // An agent's own question (an approval, say) may carry the person's note back with a decline
      // (a Deny is ok: false, reason "declined", the note in data.message: hooks/verdict.ts). MCP kinds map to an
      // ElicitResult that has no room for it, so only agents' kinds keep it.
      const message = input.data?.message;
      if (reason === "declined" && !MCP_KINDS.has(request.kind) && typeof message === "string" && message.trim() !== "") {
        return { id: request.id, ok: false, reason, data: { message: message.slice(0, MAX_DECLINE_MESSAGE) } };
      }
      return { id: request.id, ok: false, reason };
    }
    const schema = request.kind === "input" ? request.data?.schema : undefined;
    if (schema === undefined) {
      // Authorization (consent carries no data) and agents' own kinds: data passes as given.
      const data = request.kind === "authorization" ? undefined : input.data;
      return data === undefined ? { id: request.id, ok: true } : { id: request.id, ok: true, data };
    }
    const checked = checkFormAnswer(schema, input.data);
    if (!checked.ok) {
      throw new InboxError("invalid-answer", `The answer does not fit the form: ${checked.errors.join("; ")}`, checked.errors);
    }
    return { id: request.id, ok: true, data: checked.data };
  }

  private withdraw(id: string, reason: WithdrawReason, answer: Answer, message: string): void {
    if (!this.pending.has(id)) return;
    this.settle(id, answer);
    this.emit({ type: "withdrawn", id, reason, message });
  }

  private settle(id: string, answer: Answer): void {
    const pending = this.pending.get(id);
    if (!pending) return;
    this.pending.delete(id);
    for (const key of pending.keys) {
      const left = (this.perSource.get(key) ?? 1) - 1;
      if (left > 0) this.perSource.set(key, left);
      else this.perSource.delete(key);
    }
    pending.cleanup();
    pending.resolve(answer);
  }

  private emit(event: InboxEvent): void {
    for (const listener of this.listeners) {
      try {
        listener(event);
      } catch {
        // A broken view must not break the resolver or the other views.
      }
    }
  }
}
