/**
 * Schema of the data store: sessions, teardown fences and messages (webhooks and the rest add their own steps).
 * Timestamps are ISO-8601 UTC strings, so text order is time order; `config` and `metadata` are JSON text.
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
  {
    id: '0003_messages',
    up(db: SqliteDb): void {
      // UNIQUE (session_id, wa_message_id) dedupes re-fired inbound messages; SQLite treats NULLs as distinct, so
      // transient outgoing rows without a network id never collide. Its index also serves the network-id lookups.
      // The cascade removes a session's history with its row. `timestamp` is epoch seconds from the network.
      // Every list index ends in the list order (timestamp, created_at, id descending), so a page needs no sort;
      // `from` matches from_jid OR author, which the planner answers from the two last indexes (author is only
      // set on group messages, hence partial).
      db.exec(`
        CREATE TABLE messages (
          id TEXT PRIMARY KEY,
          session_id TEXT NOT NULL REFERENCES sessions (id) ON DELETE CASCADE,
          wa_message_id TEXT,
          chat_id TEXT NOT NULL,
          chat_name TEXT,
          author TEXT,
          from_jid TEXT NOT NULL,
          to_jid TEXT NOT NULL,
          body TEXT,
          type TEXT NOT NULL DEFAULT 'text',
          direction TEXT NOT NULL DEFAULT 'outgoing',
          timestamp INTEGER,
          metadata TEXT,
          status TEXT NOT NULL DEFAULT 'sent',
          media_path TEXT,
          media_mimetype TEXT,
          created_at TEXT NOT NULL,
          UNIQUE (session_id, wa_message_id)
        );
        CREATE INDEX idx_messages_session_time
          ON messages (session_id, timestamp DESC, created_at DESC, id DESC);
        CREATE INDEX idx_messages_session_chat
          ON messages (session_id, chat_id, timestamp DESC, created_at DESC, id DESC);
        CREATE INDEX idx_messages_session_from
          ON messages (session_id, from_jid, timestamp DESC, created_at DESC, id DESC);
        CREATE INDEX idx_messages_session_author
          ON messages (session_id, author, timestamp DESC, created_at DESC, id DESC) WHERE author IS NOT NULL;
      `);
    },
  },
];
