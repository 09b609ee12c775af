// The person's rules: those for this session in memory, those kept until removed in the rules
// file. The file is the truth for lasting rules: it is read again whenever it changed (the CLI may
// have removed a rule while the app runs) and every change is read-modify-write.
import type { FormRule, Rule, RuleAddArg, RuleView } from "../../shared/rules";
import type { PendingEntry } from "../../shared/types";
import type { AutoAnswer } from "../inbox";
import { explainRule } from "./explain";
import { MAX_RULES, readRulesFile, rulesFileStamp, setAsideRulesFile, writeRulesFile } from "./file";
import { makeRule, offerFor } from "./make";
import { matchRule } from "./match";

/** A rule the person asked for that cannot be made; the message says why in their words. */
export class RuleRefusedError extends Error {
  readonly code = "rule-refused";
  constructor(message: string) {
    super(message);
    this.name = "RuleRefusedError";
  }
}

export interface RuleStoreOptions {
  /** The rules file; without it only session rules exist ("always" is refused). */
  path?: string;
  log?: (line: string) => void;
  now?: () => number;
  /** The secret scrubber: a value it would change is one of the person's secrets, never kept. */
  redact?: <T>(value: T) => T;
}

interface Use {
  uses: number;
  lastUsedAt?: number;
  /** When it answered within the last minute, for the burst cap. */
  recent: number[];
  /** Said once per burst that it stopped answering. */
  capped?: boolean;
}

/**
 * Answers one rule gives in a minute at most. A server asking the same form in a loop would
 * otherwise be answered as fast as it asks, with the person none the wiser; past the cap its
 * questions reach the person again until the minute has passed.
 */
export const MAX_RULE_ANSWERS_PER_MINUTE = 30;
const MINUTE_MS = 60_000;

export class RuleStore {
  private session: Rule[] = [];
  private lasting: FormRule[] = [];
  private stamp: string | undefined;
  private fileProblem: string | undefined;
  private readonly used = new Map<string, Use>();
  private readonly listeners = new Set<(rules: RuleView[]) => void>();
  private readonly log: (line: string) => void;
  private readonly now: () => number;

  constructor(private readonly options: RuleStoreOptions = {}) {
    this.log = options.log ?? (() => {});
    this.now = options.now ?? Date.now;
    this.load();
  }

  get path(): string | undefined {
    return this.options.path;
  }

  /** Every rule, newest first, with what it does in words. */
  list(): RuleView[] {
    this.refresh();
    return this.all()
      .sort((a, b) => b.createdAt - a.createdAt)
      .map((rule) => {
        const use = this.used.get(rule.id);
        return { ...rule, explanation: explainRule(rule), uses: use?.uses ?? 0, ...(use?.lastUsedAt !== undefined ? { lastUsedAt: use.lastUsedAt } : {}) };
      });
  }

  offer(entry: PendingEntry): ReturnType<typeof offerFor> {
    const offer = offerFor(entry);
    if (offer.allowed && !this.options.path) offer.scopes = offer.scopes.filter((s) => s === "session");
    return offer;
  }

  /** Makes and keeps the rule "answer `entry` this way"; throws RuleRefusedError with the reason. */
  add(entry: PendingEntry, arg: Omit<RuleAddArg, "questionId">): RuleView {
    if (arg.scope === "always" && !this.options.path) throw new RuleRefusedError("This companion session keeps no lasting rules; choose this session only.");
    const made = makeRule(entry, arg, { now: this.now(), ...(this.options.redact ? { redact: this.options.redact } : {}) });
    if (!made.ok) throw new RuleRefusedError(made.reason);
    const rule = made.rule;
    const sameForm = (other: Rule) =>
      other.type === rule.type &&
      (rule.type === "form"
        ? other.type === "form" && other.server === rule.server && other.tool === rule.tool && other.fingerprint === rule.fingerprint
        : other.type === "approval" && other.key === rule.key);
    if (rule.scope === "always" && rule.type === "form") {
      this.refresh();
      if (this.fileProblem) {
        const aside = setAsideRulesFile(this.options.path!, this.now());
        this.log(`rules: the rules file could not be read (${this.fileProblem}); kept as ${aside ?? "is"} and started afresh.`);
        this.fileProblem = undefined;
      }
      // One rule per form and scope: the newest choice replaces the older one.
      const next = [...this.lasting.filter((r) => !sameForm(r)), rule];
      if (next.length > MAX_RULES) throw new RuleRefusedError(`You already keep ${MAX_RULES} rules; remove some first.`);
      try {
        this.stamp = writeRulesFile(this.options.path!, next);
      } catch (error) {
        throw new RuleRefusedError(`The rule could not be saved: ${(error as Error).message}`);
      }
      this.lasting = next;
    } else {
      const next = [...this.session.filter((r) => !sameForm(r)), rule];
      if (next.length > MAX_RULES) throw new RuleRefusedError(`You already have ${MAX_RULES} rules for this session; remove some first.`);
      this.session = next;
    }
    this.changed();
    return this.list().find((r) => r.id === rule.id)!;
  }

  /** Removes a rule (undo, Settings, CLI); false when there is none with that id. */
  remove(id: string): boolean {
    const before = this.session.length;
    this.session = this.session.filter((r) => r.id !== id);
    let removed = this.session.length !== before;
    if (!removed && this.options.path) {
      this.refresh();
      const next = this.lasting.filter((r) => r.id !== id);
      if (next.length !== this.lasting.length) {
        try {
          this.stamp = writeRulesFile(this.options.path, next);
        } catch (error) {
          throw new RuleRefusedError(`The rule could not be removed from ${this.options.path}: ${(error as Error).message}`);
        }
        this.lasting = next;
        removed = true;
      }
    }
    if (removed) {
      this.used.delete(id);
      this.changed();
    }
    return removed;
  }

  /** The rule that answers `entry`, if any. */
  match(entry: PendingEntry): Rule | undefined {
    this.refresh();
    return matchRule(this.all(), entry);
  }

  /** The Inbox's hook: the matching rule's answer, given in its name. */
  autoAnswer(entry: PendingEntry): AutoAnswer | undefined {
    const rule = this.match(entry);
    if (!rule) return undefined;
    const use = this.useOf(rule.id);
    const now = this.now();
    use.recent = use.recent.filter((t) => now - t < MINUTE_MS);
    if (use.recent.length >= MAX_RULE_ANSWERS_PER_MINUTE) {
      if (!use.capped) this.log(`rules: rule ${rule.id} answered ${use.recent.length} questions in a minute; the next ones go to the person until the minute has passed.`);
      use.capped = true;
      return undefined;
    }
    use.capped = false;
    // Counted when offered: an answer the Inbox then refuses still counts against the burst.
    use.recent.push(now);
    const onRefused = (reason: string) =>
      this.log(`rules: rule ${rule.id} no longer fits this form (${reason}); the question waits for the person.`);
    if (rule.action === "decline") return { ok: false, reason: "declined", ruleId: rule.id, onRefused };
    return rule.type === "form" ? { ok: true, data: { ...(rule.data ?? {}) }, ruleId: rule.id, onRefused } : { ok: true, ruleId: rule.id, onRefused };
  }

  /** Counts an answer given by rule `id` (from the Inbox's "answered" event). */
  noteUsed(id: string): void {
    if (!this.all().some((r) => r.id === id)) return;
    const use = this.useOf(id);
    use.uses++;
    use.lastUsedAt = this.now();
  }

  private useOf(id: string): Use {
    let use = this.used.get(id);
    if (!use) this.used.set(id, (use = { uses: 0, recent: [] }));
    return use;
  }

  on(listener: (rules: RuleView[]) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  private all(): Rule[] {
    return [...this.lasting, ...this.session];
  }

  private load(): void {
    if (!this.options.path) return;
    const read = readRulesFile(this.options.path);
    this.stamp = read.stamp;
    this.lasting = read.rules;
    if (read.problem && read.problem !== this.fileProblem) {
      this.log(`rules: ${this.options.path} cannot be read (${read.problem}); no lasting rule answers until it is fixed or a new rule is saved.`);
    }
    this.fileProblem = read.problem;
    for (const skip of read.skipped) this.log(`rules: left out ${skip.id ? `rule ${skip.id}` : "a rule"} from ${this.options.path}: ${skip.reason}.`);
  }

  /** Reads the file again when someone else (the CLI, the person's editor) changed it. */
  private refresh(): void {
    if (!this.options.path) return;
    if (rulesFileStamp(this.options.path) === this.stamp) return;
    this.load();
    this.changed();
  }

  private changed(): void {
    if (this.listeners.size === 0) return;
    const rules = this.list();
    for (const listener of this.listeners) {
      try {
        listener(rules);
      } catch {
        // A broken view must not break the rules.
      }
    }
  }
}
