// Asks main to check a form's values (forms:check / tools:check) as the person types. Main owns
// the validator (ajv needs `new Function`, which the page's CSP forbids), so every verdict is a
// round trip; this keeps them ordered: the latest request wins and a slow reply for older values
// never overwrites a newer one or enables a button for values no longer on screen.
import type { Envelope, FormCheck } from "../../shared/contract";
import { errorMessage } from "../../shared/unknown-value";

export type CheckCall = (data: Record<string, unknown>) => Promise<Envelope<FormCheck>>;

/** How long typing may pause before its values are checked; short enough to feel inline. */
export const CHECK_DELAY_MS = 60;

export class RemoteCheck {
  /** The newest verdict main gave, possibly for values edited since (see `settled`). */
  result = $state.raw<FormCheck | null>(null);
  /** Why the newest check could not be made (transport down, question gone), else "". */
  failure = $state("");
  /** True when `result` answers the values most recently asked about. */
  settled = $state(false);
  /** The values `result` answers, so a field edited since can hide its now-stale messages. */
  resultData = $state.raw<Record<string, unknown> | null>(null);

  #seq = 0;
  #timer: ReturnType<typeof setTimeout> | undefined;
  #resultKey: string | undefined;
  #disposed = false;

  constructor(
    private readonly call: CheckCall,
    private readonly delayMs = CHECK_DELAY_MS,
  ) {}

  /** Valid only when main said so for the values now in the form. */
  get ok(): boolean {
    return this.settled && this.result?.ok === true;
  }

  /** Schedules a check of `data` (at once when `immediate`); any pending or older check loses. */
  request(data: Record<string, unknown>, immediate = false): void {
    const seq = ++this.#seq;
    this.settled = false;
    clearTimeout(this.#timer);
    if (immediate || this.delayMs <= 0) {
      void this.#run(seq, data);
      return;
    }
    this.#timer = setTimeout(() => void this.#run(seq, data), this.delayMs);
  }

  /**
   * The verdict for exactly `data`: reused when the newest one already answers it, else asked for
   * now. Resolves null when newer values were asked about meanwhile, or the check failed.
   */
  async now(data: Record<string, unknown>): Promise<FormCheck | null> {
    const key = JSON.stringify(data);
    if (this.settled && this.#resultKey === key && this.result) return this.result;
    const seq = ++this.#seq;
    this.settled = false;
    clearTimeout(this.#timer);
    return this.#run(seq, data);
  }

  /** Stops timers and ignores replies still in flight (the form went away). */
  dispose(): void {
    this.#disposed = true;
    clearTimeout(this.#timer);
  }

  async #run(seq: number, data: Record<string, unknown>): Promise<FormCheck | null> {
    const key = JSON.stringify(data);
    let envelope: Envelope<FormCheck>;
    try {
      envelope = await this.call(data);
    } catch (error) {
      envelope = { ok: false, error: { code: "failed", message: errorMessage(error) } };
    }
    if (this.#disposed || seq !== this.#seq) return null;
    this.settled = true;
    if (!envelope.ok) {
      this.failure = envelope.error.message;
      this.result = null;
      this.resultData = null;
      this.#resultKey = undefined;
      return null;
    }
    this.failure = "";
    this.result = envelope.value;
    this.resultData = data;
    this.#resultKey = key;
    return envelope.value;
  }
}

/** The messages of `check` that belong to no field the form shows, keyed messages prefixed. */
export function formLevelErrors(check: FormCheck | null, shownKeys: readonly string[]): string[] {
  if (!check) return [];
  return Object.entries(check.fieldErrors)
    .filter(([key]) => !shownKeys.includes(key))
    .flatMap(([key, messages]) => messages.map((m) => (key ? `${key}: ${m}` : m)));
}
