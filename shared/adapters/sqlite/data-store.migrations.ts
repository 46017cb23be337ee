/**
 * Schema of the data store: sessions and teardown fences (webhooks, messages and the rest add their own steps).
 * Timestamps are ISO-8601 UTC strings, so text order is time order; `config` is JSON text.
 */
import type { Migration, SqliteDb } from './sqlite-database.js';

/** Ordered steps for the data store file; ids never change once released. */
export const DATA_STORE_MIGRATIONS: Migration[] = [
  {
    id: '0001_sessions',
    up(db: SqliteDb): void {
      db.exec(`
        CREATE TABLE sessions (
          id TEXT PRIMARY KEY,
          name TEXT NOT NULL UNIQUE,
          status TEXT NOT NULL,
          phone TEXT,
          push_name TEXT,
          config TEXT NOT NULL DEFAULT '{}',
          proxy_url TEXT,
          proxy_type TEXT,
          connected_at TEXT,
          last_active_at TEXT,
          last_error TEXT,
          node_id TEXT,
          node_url TEXT,
          claimed_at TEXT,
          lease_expires_at TEXT,
          created_at TEXT NOT NULL,
          updated_at TEXT NOT NULL
        );
        CREATE INDEX idx_sessions_created_at ON sessions (created_at, id);
        CREATE INDEX idx_sessions_status ON sessions (status, created_at);
      `);
    },
  },
  {
    id: '0002_teardown_fences',
    up(db: SqliteDb): void {
      db.exec(`
        CREATE TABLE teardown_fences (
          name TEXT PRIMARY KEY,
          expires_at TEXT NOT NULL
        );
      `);
    },
  },
];
