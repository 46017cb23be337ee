/**
 * The data store's migrations from 0010 on, kept apart from data-store.migrations.ts for size: identity aliases,
 * send pacing, message batches, the full-text index of message bodies, the kept history counts and the chat list.
 * They run after the earlier ones, in order.
 */
import type { Migration, SqliteDb } from './sqlite-database.js';

export const MESSAGING_MIGRATIONS: Migration[] = [
  {
    id: '0010_identity_aliases',
    up(db: SqliteDb): void {
      // A contact's LID and phone number, per session: history filters resolve a sender through it. The cascade
      // forgets a session's aliases with its row.
      db.exec(`
        CREATE TABLE identity_aliases (
          session_id TEXT NOT NULL REFERENCES sessions (id) ON DELETE CASCADE,
          lid TEXT NOT NULL,
          phone TEXT NOT NULL,
          PRIMARY KEY (session_id, lid)
        );
        CREATE INDEX idx_identity_aliases_phone ON identity_aliases (session_id, phone);
      `);
    },
  },
  {
    id: '0011_send_pacing',
    up(db: SqliteDb): void {
      // Send pacing per session (SendPacingStore): the UTC day `sent` and `cold` count, the streak of failed sends
      // and until when (epoch ms) the breaker is open. One row per session that sent with pacing on; the cascade
      // removes it with its session.
      db.exec(`
        CREATE TABLE send_pacing (
          session_id TEXT PRIMARY KEY REFERENCES sessions (id) ON DELETE CASCADE,
          day TEXT,
          sent INTEGER NOT NULL DEFAULT 0,
          cold INTEGER NOT NULL DEFAULT 0,
          failures INTEGER NOT NULL DEFAULT 0,
          open_until INTEGER
        );
      `);
    },
  },
  {
    id: '0012_message_batches',
    up(db: SqliteDb): void {
      // A send-bulk job (spec "Message batch (stored job)", snake_case columns); batch_id is unique per session.
      // The status index serves the concurrency cap's count and a session's unfinished batches at resume.
      db.exec(`
        CREATE TABLE message_batches (
          id TEXT PRIMARY KEY,
          batch_id TEXT NOT NULL,
          session_id TEXT NOT NULL REFERENCES sessions (id) ON DELETE CASCADE,
          status TEXT NOT NULL DEFAULT 'pending',
          messages TEXT NOT NULL,
          options TEXT NOT NULL,
          progress TEXT NOT NULL,
          results TEXT NOT NULL DEFAULT '[]',
          current_index INTEGER NOT NULL DEFAULT 0,
          created_at TEXT NOT NULL,
          updated_at TEXT NOT NULL,
          started_at TEXT,
          completed_at TEXT
        );
        CREATE UNIQUE INDEX idx_message_batches_batch_id ON message_batches (session_id, batch_id);
        CREATE INDEX idx_message_batches_status ON message_batches (status, session_id, created_at);
      `);
    },
  },
  {
    id: '0013_message_search',
    up(db: SqliteDb): void {
      // Full-text search over message bodies (sqlite-message-reads.ts). A contentless FTS5 table whose rowid is
      // minus the message's rowid: FTS5 walks a doclist fastest in ascending rowid order, and ascending here is
      // newest stored first, so a page and a capped count stop early. `scope` holds two tokens, `s<hex(session)>` and
      // `c<hex(session/chat)>`, so a session's or a chat's matches come from the index alone, never from a lookup of
      // every matching row. Triggers follow every change of a body (edits, revokes), and deletes (session delete,
      // also through the cascade); contentless_delete lets them delete by rowid alone. unicode61 with
      // remove_diacritics 2: words of letters and digits in any script, case and Latin diacritics folded; trigram
      // (substrings) would triple the index and cannot match terms shorter than three characters. Message rowids
      // must stay stable: SQLite's VACUUM keeps them in practice but does not promise it for a table without an
      // INTEGER PRIMARY KEY, so after one, empty the index ('delete-all') and refill it as below.
      // The sender filter of the history (`from_jid = ? OR author = ?`) reads two index ranges; the author index
      // now also holds from_jid, so the second range leaves out the rows of the first without reading them.
      db.exec(`
        CREATE VIRTUAL TABLE messages_fts USING fts5(
          body, scope, content = '', contentless_delete = 1, tokenize = 'unicode61 remove_diacritics 2'
        );
        CREATE TRIGGER messages_fts_insert AFTER INSERT ON messages WHEN new.body IS NOT NULL BEGIN
          INSERT INTO messages_fts (rowid, body, scope) VALUES (
            -new.rowid, new.body, 's' || hex(new.session_id) || ' c' || hex(new.session_id || '/' || new.chat_id));
        END;
        CREATE TRIGGER messages_fts_delete AFTER DELETE ON messages WHEN old.body IS NOT NULL BEGIN
          DELETE FROM messages_fts WHERE rowid = -old.rowid;
        END;
        CREATE TRIGGER messages_fts_update AFTER UPDATE OF body, session_id, chat_id ON messages
        WHEN old.body IS NOT new.body OR old.session_id IS NOT new.session_id OR old.chat_id IS NOT new.chat_id
        BEGIN
          DELETE FROM messages_fts WHERE rowid = -old.rowid;
          INSERT INTO messages_fts (rowid, body, scope)
            SELECT -new.rowid, new.body, 's' || hex(new.session_id) || ' c' || hex(new.session_id || '/' || new.chat_id)
            WHERE new.body IS NOT NULL;
        END;
        INSERT INTO messages_fts (rowid, body, scope)
          SELECT -rowid, body, 's' || hex(session_id) || ' c' || hex(session_id || '/' || chat_id)
          FROM messages WHERE body IS NOT NULL;
        DROP INDEX idx_messages_session_author;
        CREATE INDEX idx_messages_session_author
          ON messages (session_id, author, timestamp DESC, created_at DESC, id DESC, from_jid) WHERE author IS NOT NULL;
      `);
    },
  },
  {
    id: '0014_message_counts',
    up(db: SqliteDb): void {
      // The history's `total` (sqlite-message-reads.ts) from counts kept per (session, chat, from, author) instead of
      // counting index entries: an account's own number is the sender of a large part of its history, and counting
      // 400,000 entries took 145 ms where the page itself took 2. The filters (session, chat, sender as `from_jid`
      // or `author`) are columns of this table, so a filter's total is a sum over its few rows here. Triggers keep it
      // in step with every insert, delete (also through the session's cascade) and change of those columns; `author`
      // is '' where a message has none, so the key has no NULL (which UNIQUE would treat as distinct).
      db.exec(`
        CREATE TABLE message_counts (
          session_id TEXT NOT NULL,
          chat_id TEXT NOT NULL,
          from_jid TEXT NOT NULL,
          author TEXT NOT NULL,
          n INTEGER NOT NULL,
          PRIMARY KEY (session_id, chat_id, from_jid, author)
        ) WITHOUT ROWID;
        CREATE INDEX idx_message_counts_from ON message_counts (session_id, from_jid);
        CREATE INDEX idx_message_counts_author ON message_counts (session_id, author);
        CREATE TRIGGER message_counts_insert AFTER INSERT ON messages BEGIN
          INSERT INTO message_counts (session_id, chat_id, from_jid, author, n)
            VALUES (new.session_id, new.chat_id, new.from_jid, coalesce(new.author, ''), 1)
            ON CONFLICT DO UPDATE SET n = n + 1;
        END;
        CREATE TRIGGER message_counts_delete AFTER DELETE ON messages BEGIN
          UPDATE message_counts SET n = n - 1 WHERE session_id = old.session_id AND chat_id = old.chat_id
            AND from_jid = old.from_jid AND author = coalesce(old.author, '');
          DELETE FROM message_counts WHERE session_id = old.session_id AND chat_id = old.chat_id
            AND from_jid = old.from_jid AND author = coalesce(old.author, '') AND n <= 0;
        END;
        CREATE TRIGGER message_counts_update AFTER UPDATE OF session_id, chat_id, from_jid, author ON messages
        WHEN old.session_id IS NOT new.session_id OR old.chat_id IS NOT new.chat_id
          OR old.from_jid IS NOT new.from_jid OR old.author IS NOT new.author
        BEGIN
          UPDATE message_counts SET n = n - 1 WHERE session_id = old.session_id AND chat_id = old.chat_id
            AND from_jid = old.from_jid AND author = coalesce(old.author, '');
          DELETE FROM message_counts WHERE session_id = old.session_id AND chat_id = old.chat_id
            AND from_jid = old.from_jid AND author = coalesce(old.author, '') AND n <= 0;
          INSERT INTO message_counts (session_id, chat_id, from_jid, author, n)
            VALUES (new.session_id, new.chat_id, new.from_jid, coalesce(new.author, ''), 1)
            ON CONFLICT DO UPDATE SET n = n + 1;
        END;
        INSERT INTO message_counts (session_id, chat_id, from_jid, author, n)
          SELECT session_id, chat_id, from_jid, coalesce(author, ''), count(*) FROM messages
          GROUP BY session_id, chat_id, from_jid, coalesce(author, '');
      `);
    },
  },
  {
    id: '0015_chats',
    up(db: SqliteDb): void {
      // The chat list of each session (SqliteChatStore); the cascade forgets a session's chats with its row.
      // `timestamp`, `pinned_at` are epoch seconds, `mute_until` epoch ms (-1: muted forever), `last_message` JSON
      // text. The index is the list order: SQLite sorts NULL below every value, so `timestamp DESC` puts the chats
      // without one last, and a page is read from the index in order without a sort.
      db.exec(`
        CREATE TABLE chats (
          session_id TEXT NOT NULL REFERENCES sessions (id) ON DELETE CASCADE,
          chat_id TEXT NOT NULL,
          name TEXT,
          unread_count INTEGER NOT NULL DEFAULT 0,
          marked_unread INTEGER NOT NULL DEFAULT 0,
          timestamp INTEGER,
          last_message TEXT,
          archived INTEGER NOT NULL DEFAULT 0,
          pinned_at INTEGER,
          mute_until INTEGER,
          PRIMARY KEY (session_id, chat_id)
        );
        CREATE INDEX idx_chats_session_order ON chats (session_id, timestamp DESC, chat_id);
      `);
    },
  },
  {
    id: '0016_status_updates',
    up(db: SqliteDb): void {
      // Status updates (SqliteStatusStore): contacts' posts and the account's own, unique per (session, network id),
      // gone with their session (cascade). Times are epoch ms; `media` and `recipients` JSON text. The first index is
      // the list order, the second finds what expired.
      db.exec(`
        CREATE TABLE status_updates (
          session_id TEXT NOT NULL REFERENCES sessions (id) ON DELETE CASCADE,
          status_id TEXT NOT NULL,
          contact_id TEXT NOT NULL,
          push_name TEXT,
          from_me INTEGER NOT NULL,
          type TEXT NOT NULL,
          text TEXT,
          caption TEXT,
          background_color TEXT,
          font INTEGER,
          media TEXT,
          media_path TEXT,
          recipients TEXT NOT NULL,
          posted_at INTEGER NOT NULL,
          expires_at INTEGER NOT NULL,
          PRIMARY KEY (session_id, status_id)
        );
        CREATE INDEX idx_status_updates_order ON status_updates (session_id, posted_at DESC, status_id);
        CREATE INDEX idx_status_updates_expiry ON status_updates (expires_at);
      `);
    },
  },
];
