/**
 * Opening SQLite files and running ordered, idempotent migrations. Every SQLite adapter (stores, the embedded
 * queue) goes through here so pragmas and the migration ledger are the same everywhere.
 */
import fs from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { checkpointInBackground } from './sqlite-wal-checkpointer.js';

export type SqliteDb = Database.Database;

/** One schema step. `id` orders the steps and is recorded once applied; `up` runs inside a transaction. */
export interface Migration {
  id: string;
  up(db: SqliteDb): void;
}

/**
 * Opens (creating the folder and file if needed) a SQLite database in WAL mode, its checkpoints run by a worker
 * thread (sqlite-wal-checkpointer.ts) until it is closed; `:memory:` is accepted.
 */
export function openSqlite(file: string): SqliteDb {
  if (file !== ':memory:') fs.mkdirSync(path.dirname(file), { recursive: true });
  const db = new Database(file);
  db.pragma('journal_mode = WAL');
  // NORMAL is durable across process crashes in WAL mode; only an OS crash can lose the last transactions.
  db.pragma('synchronous = NORMAL');
  db.pragma('foreign_keys = ON');
  db.pragma('busy_timeout = 5000');
  checkpointInBackground(db);
  return db;
}

/** Code-unit order of the ids: `localeCompare` would load ICU's collator, over 100 ms of a start, for ASCII ids. */
function byId(a: Migration, b: Migration): number {
  return a.id < b.id ? -1 : a.id > b.id ? 1 : 0;
}

/**
 * Applies the migrations not yet recorded in `schema_migrations`, in id order, each in its own transaction.
 * Running it again is a no-op. Answers the ids applied by this call.
 *
 * An up-to-date file (every start but the first after an upgrade) costs one read: the ledger is read once outside
 * any transaction, and only the steps missing from it take the write lock, where they are checked again.
 */
export function runMigrations(db: SqliteDb, migrations: readonly Migration[]): string[] {
  const ledger = db
    .prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'schema_migrations'")
    .get();
  const recorded = new Set<string>(
    ledger === undefined
      ? []
      : db
          .prepare('SELECT id FROM schema_migrations')
          .pluck()
          .all()
          .filter((id): id is string => typeof id === 'string'),
  );
  const pending = migrations.filter((migration) => !recorded.has(migration.id)).sort(byId);
  if (pending.length === 0) return [];
  db.exec('CREATE TABLE IF NOT EXISTS schema_migrations (id TEXT PRIMARY KEY, applied_at TEXT NOT NULL)');
  const isApplied = db.prepare('SELECT 1 FROM schema_migrations WHERE id = ?');
  const record = db.prepare('INSERT INTO schema_migrations (id, applied_at) VALUES (?, ?)');
  const ran: string[] = [];
  for (const migration of pending) {
    // Check and apply under one write lock, so two processes opening a fresh file cannot both apply a step.
    db.transaction(() => {
      if (isApplied.get(migration.id)) return;
      migration.up(db);
      record.run(migration.id, new Date().toISOString());
      ran.push(migration.id);
    }).immediate();
  }
  return ran;
}
