// The one resolver of the app. Every question — an MCP server's elicitation or an agent's posted
// Request — waits here until it is answered once, expires, is withdrawn, or the app closes.
import type { Answer, Asker, InboxEvent, PendingEntry, Request } from "../../shared/types";
import { checkFormAnswer } from "../../forms/check-answer";
import { InboxError } from "./errors";

export interface InboxOptions {
  /** Pending questions one source may have at once; past it, new ones are cancelled at once. */
  maxPendingPerSource?: number;
  /** Clock, for tests. */
  now?: () => number;
}

export interface WaitOptions {
  source: Asker;
  /** Aborting withdraws the question from every view and resolves it `cancelled`. */
  signal?: AbortSignal;
}

interface Pending {
  entry: PendingEntry;
  resolve: (answer: Answer) => void;
  cleanup: () => void;
}

const DEFAULT_MAX_PER_SOURCE = 8;
// setTimeout holds at most a signed 32-bit delay; longer expiries are re-armed when it fires.
const MAX_TIMER_MS = 2 ** 31 - 1;

/** The source key the flood cap counts by: the server, else the agent. */
export function sourceKey(source: Asker): string {
  return source.server ? `server:${source.server}` : `agent:${source.agent ?? "agent"}`;
}

export class Inbox {
  private readonly pending = new Map<string, Pending>();
  /** Pending count per source key, for the flood cap without scanning every question. */
  private readonly perSource = new Map<string, number>();
  private readonly listeners = new Set<(event: InboxEvent) => void>();
  private readonly maxPerSource: number;
  private readonly now: () => number;
  private closed = false;

  constructor(options: InboxOptions = {}) {
    this.maxPerSource = options.maxPendingPerSource ?? DEFAULT_MAX_PER_SOURCE;
    this.now = options.now ?? Date.now;
  }

  /** The app's `waitFor`: resolves with the person's answer, or a cancel/expiry in their stead. */
  waitFor(request: Request, options: WaitOptions): Promise<Answer> {
    const source = { ...options.source };
    const refuse = (reason: string, answerReason = "cancelled"): Promise<Answer> => {
      this.emit({ type: "refused", request, source, reason });
      return Promise.resolve({ id: request.id, ok: false, reason: answerReason });
    };
    if (this.closed) return refuse("the companion is shutting down");
    if (options.signal?.aborted) return refuse("the asker gave up before the question arrived");
    if (this.pending.has(request.id)) return refuse(`a question with id "${request.id}" is already pending`);

    const expiresAt = request.expiresAt === undefined ? undefined : Date.parse(request.expiresAt);
    if (expiresAt !== undefined && (Number.isNaN(expiresAt) || expiresAt <= this.now())) {
      return refuse(Number.isNaN(expiresAt) ? "its expiresAt is not a date" : "it expired before it arrived", "expired");
    }
    const key = sourceKey(source);
    const fromSource = this.perSource.get(key) ?? 0;
    if (fromSource >= this.maxPerSource) {
      return refuse(`${key.split(":")[1]} already has ${fromSource} questions waiting (limit ${this.maxPerSource})`);
    }

    return new Promise<Answer>((resolve) => {
      const entry: PendingEntry = { request, source, receivedAt: this.now() };
      let timer: ReturnType<typeof setTimeout> | undefined;
      const onAbort = () => {
        const why = options.signal?.reason;
        const message = why instanceof Error ? why.message : typeof why === "string" ? why : "the asker stopped waiting";
        this.withdraw(request.id, "aborted", { id: request.id, ok: false, reason: "cancelled" }, message);
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
        options.signal?.removeEventListener("abort", onAbort);
      };
      this.pending.set(request.id, { entry, resolve, cleanup });
      this.perSource.set(key, fromSource + 1);
      options.signal?.addEventListener("abort", onAbort, { once: true });
      armExpiry();
      this.emit({ type: "added", entry });
    });
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
    if (!pending) {
      throw new InboxError("unknown-id", `No pending question has id "${id}": it was answered, withdrawn, or never asked.`);
    }
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

  private withdraw(id: string, reason: "aborted" | "expired" | "closed", answer: Answer, message: string): void {
    if (!this.pending.has(id)) return;
    this.settle(id, answer);
    this.emit({ type: "withdrawn", id, reason, message });
  }

  private settle(id: string, answer: Answer): void {
    const pending = this.pending.get(id);
    if (!pending) return;
    this.pending.delete(id);
    const key = sourceKey(pending.entry.source);
    const left = (this.perSource.get(key) ?? 1) - 1;
    if (left > 0) this.perSource.set(key, left);
    else this.perSource.delete(key);
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
