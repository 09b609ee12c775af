// The history schema, as an ordered list of migrations. PRAGMA user_version says how many have
// run; opening a file runs the rest in one transaction each, so an older file is upgraded in
// place and a half-done upgrade never sticks. Append only: never edit a migration that shipped.
import type Database from "better-sqlite3";

export interface Migration {
  /** The user_version after this migration. */
  version: number;
  describe: string;
  up(db: Database.Database, features: { fts5: boolean }): void;
}

export const MIGRATIONS: readonly Migration[] = [
  {
    version: 1,
    describe: "questions: one row per question, its asker, its outcome and the kept answer",
    up(db) {
      db.exec(`
        CREATE TABLE questions (
          id          INTEGER PRIMARY KEY,
          request_id  TEXT NOT NULL,
          kind        TEXT NOT NULL,
          prompt      TEXT NOT NULL,
          server      TEXT,
          agent       TEXT,
          url         TEXT,
          fields      TEXT NOT NULL DEFAULT '[]',
          outcome     TEXT NOT NULL,
          reason      TEXT,
          answer      TEXT,
          received_at INTEGER NOT NULL,
          settled_at  INTEGER,
          answer_ms   INTEGER
        );
        CREATE INDEX questions_received ON questions (received_at);
        CREATE INDEX questions_pending ON questions (request_id) WHERE outcome = 'pending';
      `);
    },
  },
  {
    version: 2,
    describe: "who settled it (by), filter indexes, settings, and full-text search when SQLite has FTS5",
    up(db, { fts5 }) {
      db.exec(`
        ALTER TABLE questions ADD COLUMN by TEXT;
        UPDATE questions SET by = 'person' WHERE outcome IN ('accepted', 'declined');
        UPDATE questions SET by = 'companion' WHERE by IS NULL AND outcome NOT IN ('pending', 'cancelled');
        CREATE INDEX questions_outcome ON questions (outcome, received_at);
        CREATE INDEX questions_server ON questions (server, received_at);
        CREATE INDEX questions_agent ON questions (agent, received_at);
        CREATE INDEX questions_kind ON questions (kind, received_at);
        CREATE TABLE settings (key TEXT PRIMARY KEY, value TEXT NOT NULL);
      `);
      if (!fts5) return;
      // External-content index: the text lives once, in questions; triggers keep the index in step.
      db.exec(`
        CREATE VIRTUAL TABLE questions_fts USING fts5(
          prompt, server, agent, fields, content='questions', content_rowid='id'
        );
        CREATE TRIGGER questions_fts_insert AFTER INSERT ON questions BEGIN
          INSERT INTO questions_fts (rowid, prompt, server, agent, fields)
          VALUES (new.id, new.prompt, new.server, new.agent, new.fields);
        END;
        CREATE TRIGGER questions_fts_delete AFTER DELETE ON questions BEGIN
          INSERT INTO questions_fts (questions_fts, rowid, prompt, server, agent, fields)
          VALUES ('delete', old.id, old.prompt, old.server, old.agent, old.fields);
        END;
        CREATE TRIGGER questions_fts_update AFTER UPDATE OF prompt, server, agent, fields ON questions BEGIN
          INSERT INTO questions_fts (questions_fts, rowid, prompt, server, agent, fields)
          VALUES ('delete', old.id, old.prompt, old.server, old.agent, old.fields);
          INSERT INTO questions_fts (rowid, prompt, server, agent, fields)
          VALUES (new.id, new.prompt, new.server, new.agent, new.fields);
        END;
        INSERT INTO questions_fts (questions_fts) VALUES ('rebuild');
      `);
    },
  },
  {
    version: 3,
    describe: "repeats: a flood of refusals from one asker is one row with a count, not thousands",
    up(db) {
      db.exec("ALTER TABLE questions ADD COLUMN repeats INTEGER NOT NULL DEFAULT 1");
    },
  },
  {
    version: 4,
    describe: "tasks: the MCP tasks the companion follows, so they outlive it (tasks-store.ts)",
    up(db) {
      // One row per task, written over as it changes; ended rows stay a while for the Tasks view.
      db.exec(`
        CREATE TABLE tasks (
          id             TEXT PRIMARY KEY,
          server         TEXT NOT NULL,
          tool           TEXT NOT NULL,
          agent          TEXT,
          task_id        TEXT NOT NULL,
          generation     TEXT NOT NULL,
          state          TEXT NOT NULL,
          status_message TEXT,
          progress       TEXT,
          created_at     INTEGER NOT NULL,
          last_polled_at INTEGER,
          ended_at       INTEGER,
          outcome        TEXT
        );
        CREATE INDEX tasks_live ON tasks (created_at) WHERE ended_at IS NULL;
        CREATE INDEX tasks_ended ON tasks (ended_at) WHERE ended_at IS NOT NULL;
      `);
    },
  },
  {
    version: 5,
    describe: "device: the paired device a question was answered on, by its name",
    up(db) {
      db.exec("ALTER TABLE questions ADD COLUMN device TEXT");
    },
  },
];

export const SCHEMA_VERSION = MIGRATIONS[MIGRATIONS.length - 1].version;

/** Whether this SQLite build has FTS5 (better-sqlite3's bundled one does; a system one may not). */
function hasFts5(db: Database.Database): boolean {
  try {
    return (db.prepare("SELECT sqlite_compileoption_used('ENABLE_FTS5') AS v").get() as { v: number }).v === 1;
  } catch {
    return false;
  }
}

/** Runs the migrations past the file's user_version. Throws if the file is newer than this app. */
export function migrate(db: Database.Database, upTo: number = SCHEMA_VERSION): number {
  const current = db.pragma("user_version", { simple: true }) as number;
  if (current > SCHEMA_VERSION) {
    throw new Error(`history was written by a newer companion (schema ${current}, this one knows ${SCHEMA_VERSION})`);
  }
  const features = { fts5: hasFts5(db) };
  for (const migration of MIGRATIONS) {
    if (migration.version <= current || migration.version > upTo) continue;
    db.transaction(() => {
      migration.up(db, features);
      db.pragma(`user_version = ${migration.version}`);
    })();
  }
  return db.pragma("user_version", { simple: true }) as number;
}
