// The history database's lifecycle: one SQLite file (better-sqlite3, WAL) in the app's data folder.
// Opening never throws: a file that is not a database, or is corrupt, is moved aside and a fresh
// one started; a file that cannot be opened at all leaves the store `unavailable` (see status()),
// and it tries again on a later write. Writes throw HistoryBusyError while another connection
// holds the write lock, so the caller can retry without blocking the event loop (busy timeout 0).
// The size budgets are kept here too; the questions' own reads and writes are in store.ts.
import Database from "better-sqlite3";
import { chmodSync, existsSync, mkdirSync, renameSync, rmSync } from "node:fs";
import { assertTrusted } from "../base/file-trust";
import path from "node:path";
import { explainNativeLoadError } from "../base/native-addon";
import { HISTORY_BUDGET_BYTES, HISTORY_SOURCE_BUDGET_BYTES } from "../../shared/limits";
import { migrate, SCHEMA_VERSION } from "./migrations";
import { defaultHistoryPath } from "./paths";
import type { HistoryStatus } from "../../shared/history";

export interface HistoryStoreOptions {
  /** The database file; defaults to defaultHistoryPath(). */
  path?: string;
  log?: (line: string) => void;
  /** Open for reading only (the CLI): no migrations, no file created. */
  readonly?: boolean;
  /** Milliseconds a connection waits on a lock. 0 for the app (it retries without blocking). */
  busyTimeoutMs?: number;
  /** Use LIKE even where FTS5 exists (tests of the fallback). */
  noFts?: boolean;
  now?: () => number;
  /**
   * Applied to every record before it is written: the composition root passes the secret
   * scrubber, so a prompt or reason that echoes a configured secret never lands on disk.
   */
  redact?: <T>(value: T) => T;
  /**
   * The better-sqlite3 addon file to load instead of node_modules' own: the desktop app passes
   * the Electron build (scripts/electron-natives.mjs); Node uses the default.
   */
  nativeBinding?: string;
  /** The command that rebuilds the addon for this runtime, named when it does not load. */
  nativeFix?: string;
  /** The database's size at most (HISTORY_BUDGET_BYTES); the oldest records go first past it. */
  budgetBytes?: number;
  /** One asker's records at most, as stored (HISTORY_SOURCE_BUDGET_BYTES). */
  sourceBudgetBytes?: number;
}

/** What a row takes as stored, near enough: its texts and a fixed share for columns and indexes. */
const ROW_BYTES = "(length(prompt) + length(fields) + length(request_id) + ifnull(length(answer), 0) + ifnull(length(reason), 0) + ifnull(length(url), 0) + 200)";
/** Rows removed per step while over a budget: the oldest first, a step at a time. */
const TRIM_STEP_ROWS = 500;

export class HistoryBusyError extends Error {
  constructor(cause: Error) {
    super(`history is locked by another connection (${cause.message})`);
  }
}

export class HistoryUnavailableError extends Error {}

/** A store that could not open tries again on a write at most this often. */
const REOPEN_AFTER_MS = 5_000;

function sqliteCode(error: unknown): string {
  const code = (error as { code?: unknown })?.code;
  return typeof code === "string" ? code : "";
}

export function isBusy(error: unknown): boolean {
  const code = sqliteCode(error);
  return code.startsWith("SQLITE_BUSY") || code.startsWith("SQLITE_LOCKED");
}

export function isCorrupt(error: unknown): boolean {
  const code = sqliteCode(error);
  return code.startsWith("SQLITE_CORRUPT") || code === "SQLITE_NOTADB";
}

function stamp(now: number): string {
  return new Date(now).toISOString().replace(/[:.]/g, "-");
}

/** The database file and its handle; HistoryStore (store.ts) adds the questions' queries. */
export class HistoryDb {
  readonly path: string;
  protected db: Database.Database | undefined;
  protected fts = false;
  private readonly statements = new Map<string, Database.Statement>();
  private detail: string | undefined;
  private dropped = 0;
  private lastOpenAttempt = 0;
  private closed = false;
  protected readonly log: (line: string) => void;
  protected readonly now: () => number;

  constructor(protected readonly options: HistoryStoreOptions = {}) {
    this.path = path.resolve(options.path ?? defaultHistoryPath());
    this.log = options.log ?? (() => {});
    this.now = options.now ?? Date.now;
    this.tryOpen();
  }

  status(): HistoryStatus {
    const status: HistoryStatus = {
      state: this.db ? "ok" : "unavailable",
      path: this.path,
      dropped: this.dropped,
      search: this.fts ? "fts5" : "like",
    };
    if (this.detail !== undefined) status.detail = this.detail;
    return status;
  }

  /** The recorder gave up on a record; counted for status(). */
  noteDropped(detail: string): void {
    this.dropped++;
    this.detail = detail;
  }

  /** A write went through after trouble: the problem is over. */
  noteRecovered(): void {
    this.detail = undefined;
  }

  /** The budget the database is kept under (Settings shows it with sizeBytes()). */
  get budgetBytes(): number {
    return this.options.budgetBytes ?? HISTORY_BUDGET_BYTES;
  }

  /** Bytes the database's pages hold now (free pages not counted); 0 while unavailable. */
  sizeBytes(): number {
    if (!this.db) return 0;
    try {
      const pages = (this.db.pragma("page_count", { simple: true }) as number) - (this.db.pragma("freelist_count", { simple: true }) as number);
      return pages * (this.db.pragma("page_size", { simple: true }) as number);
    } catch {
      return 0;
    }
  }

  /**
   * Runs `fn` (several writes) as one transaction: one commit for a batch, however many rows.
   * Taken IMMEDIATE, so a lock held by another connection fails here, before any write ran.
   */
  batch(fn: () => void): void {
    this.run("batch", (db) => db.transaction(fn).immediate());
  }

  /**
   * Keeps the budgets: an asker past its share loses its oldest records, then, while the whole
   * file is past its budget, everyone's oldest go. Pending questions stay. Returns rows removed.
   */
  enforceBudget(sources: Iterable<{ server?: string; agent?: string }> = []): number {
    const sourceBudget = this.options.sourceBudgetBytes ?? HISTORY_SOURCE_BUDGET_BYTES;
    return this.run("budget", (db) => {
      let removed = 0;
      for (const source of sources) {
        const where = source.server !== undefined ? "server = @server" : "server IS NULL AND agent IS @agent";
        const params = { server: source.server ?? null, agent: source.agent ?? null };
        const used = (this.statement(db, `SELECT ifnull(sum(${ROW_BYTES}), 0) AS bytes FROM questions WHERE ${where}`).get(params) as { bytes: number }).bytes;
        if (used <= sourceBudget) continue;
        removed += this.deleteOldest(db, where, params, used - sourceBudget * 0.9);
      }
      for (let step = 0; step < 100 && this.sizeBytes() > this.budgetBytes; step++) {
        // A tenth under the budget, so the next few writes do not trim again at once.
        const gone = this.deleteOldest(db, "1 = 1", {}, this.sizeBytes() - this.budgetBytes * 0.9, TRIM_STEP_ROWS);
        if (gone === 0) break;
        removed += gone;
        // The search index keeps deleted rows' words until merged: merge so the pages come free.
        if (this.fts) db.exec("INSERT INTO questions_fts (questions_fts) VALUES ('optimize')");
      }
      return removed;
    });
  }

  /** Deletes the oldest settled rows matching `where` until `bytes` are gone (or `rows` rows). */
  private deleteOldest(db: Database.Database, where: string, params: Record<string, unknown>, bytes: number, rows = Infinity): number {
    const victims = this.statement(
      db,
      `SELECT id, ${ROW_BYTES} AS bytes FROM questions WHERE ${where} AND outcome != 'pending' ORDER BY received_at, id LIMIT @limit`,
    ).all({ ...params, limit: Number.isFinite(rows) ? rows : 100_000 }) as { id: number; bytes: number }[];
    const ids: number[] = [];
    let freed = 0;
    for (const victim of victims) {
      if (freed >= bytes) break;
      ids.push(victim.id);
      freed += victim.bytes;
    }
    const remove = this.statement(db, "DELETE FROM questions WHERE id = ?");
    db.transaction(() => {
      for (const id of ids) remove.run(id);
    })();
    return ids.length;
  }

  /**
   * Runs `fn` on this file's connection as the store's own queries run (busy, corrupt and
   * unavailable handled alike), for another table kept in the same file (tasks-store.ts).
   */
  use<T>(what: string, fn: (prepare: (sql: string) => Database.Statement) => T): T {
    return this.run(what, (db) => fn((sql) => this.statement(db, sql)));
  }

  close(): void {
    this.closed = true;
    this.shut();
  }

  protected shut(): void {
    const db = this.db;
    this.db = undefined;
    this.statements.clear();
    try {
      db?.close();
    } catch {
      // Closing a broken handle is best effort.
    }
  }

  protected statement(db: Database.Database, sql: string): Database.Statement {
    let statement = this.statements.get(sql);
    if (!statement) {
      statement = db.prepare(sql);
      this.statements.set(sql, statement);
    }
    return statement;
  }

  /** Runs `fn` on an open database; a corrupt file is moved aside once and `fn` tried again. */
  protected run<T>(what: string, fn: (db: Database.Database) => T): T {
    const db = this.ensureOpen();
    try {
      return fn(db);
    } catch (error) {
      if (isBusy(error)) throw new HistoryBusyError(error as Error);
      if (!isCorrupt(error) || this.options.readonly) throw error;
      this.log(`history: ${what} found ${this.path} corrupt (${(error as Error).message}).`);
      this.shut();
      this.moveAside();
      return fn(this.ensureOpen(true));
    }
  }

  private ensureOpen(force = false): Database.Database {
    if (this.closed) throw new HistoryUnavailableError("history is closed");
    if (!this.db && (force || this.now() - this.lastOpenAttempt >= REOPEN_AFTER_MS)) this.tryOpen();
    if (!this.db) throw new HistoryUnavailableError(`history is unavailable: ${this.detail ?? "the database could not be opened"}`);
    return this.db;
  }

  private tryOpen(): void {
    this.lastOpenAttempt = this.now();
    try {
      this.db = this.openOnce();
      this.detail = undefined;
    } catch (error) {
      if (isCorrupt(error) && !this.options.readonly) {
        this.log(`history: ${this.path} is not a usable database (${(error as Error).message}).`);
        this.moveAside();
        try {
          this.db = this.openOnce();
          this.detail = undefined;
          return;
        } catch (again) {
          error = again;
        }
      }
      this.db = undefined;
      const detail = explainNativeLoadError("better-sqlite3", error, this.options.nativeFix ?? "npm rebuild better-sqlite3") ?? `could not open ${this.path}: ${(error as Error).message}`;
      // Reopening is retried on later writes; say it once, not every few seconds.
      if (detail !== this.detail) this.log(`history: ${detail}`);
      this.detail = detail;
    }
  }

  private openOnce(): Database.Database {
    const readonly = this.options.readonly === true;
    if (!readonly) mkdirSync(path.dirname(this.path), { recursive: true, mode: 0o700 });
    // A history others can change or plant is not opened (base/file-trust.ts); the reason becomes the status detail.
    assertTrusted(this.path);
    const native = this.options.nativeBinding !== undefined ? { nativeBinding: this.options.nativeBinding } : {};
    const db = new Database(this.path, { readonly, fileMustExist: readonly, timeout: this.options.busyTimeoutMs ?? 0, ...native });
    try {
      if (!readonly) chmodSync(this.path, 0o600); // prompts and answers are the person's own, whatever mode it had
      if (!readonly) {
        db.pragma("journal_mode = WAL");
        db.pragma("synchronous = NORMAL"); // WAL + NORMAL: durable across app crashes, fast commits
        db.pragma("secure_delete = ON"); // swept and cleared rows are overwritten, not just unlinked
        migrate(db);
      } else {
        const version = db.pragma("user_version", { simple: true }) as number;
        if (version > SCHEMA_VERSION) throw new Error(`history was written by a newer companion (schema ${version})`);
        if (version < 1) throw new HistoryUnavailableError("history has not been written yet");
      }
      this.fts = !this.options.noFts && db.prepare("SELECT 1 FROM sqlite_master WHERE name = 'questions_fts'").get() !== undefined;
      return db;
    } catch (error) {
      db.close();
      throw error;
    }
  }

  /** Keeps a corrupt file for inspection as `<file>.corrupt-<time>` and starts afresh. */
  private moveAside(): void {
    const aside = `${this.path}.corrupt-${stamp(this.now())}`;
    try {
      renameSync(this.path, aside);
      for (const suffix of ["-wal", "-shm"]) {
        if (existsSync(this.path + suffix)) {
          if (suffix === "-wal") renameSync(this.path + suffix, aside + suffix);
          else rmSync(this.path + suffix, { force: true });
        }
      }
      this.log(`history: moved the corrupt database aside to ${aside}; starting a new history.`);
    } catch (error) {
      this.log(`history: could not move the corrupt database aside: ${(error as Error).message}`);
    }
  }
}