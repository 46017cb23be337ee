/**
 * The data store's migrations for the message statistics (shared/domain/message-stats.ts), kept apart from the
 * messaging ones for size. They run after those, in order.
 */
import { STATS_KEPT_DAYS, TOP_CHAT_WINDOW_DAYS } from '#shared/domain/message-stats.js';
import type { Migration, SqliteDb } from './sqlite-database.js';

/** A message row's statistics time in SQL (see statsTime): its timestamp, else when it was stored. */
const time = (row: 'new' | 'old' | 'm') =>
  `coalesce(${row}.timestamp, CAST(strftime('%s', ${row}.created_at) AS INTEGER))`;
const NOW = `CAST(strftime('%s', 'now') AS INTEGER)`;
/** The oldest epoch hour and day still kept, as of now. */
export const KEPT_HOUR = `(${NOW} / 3600 - ${STATS_KEPT_DAYS * 24})`;
export const KEPT_DAY = `(${NOW} / 86400 - ${STATS_KEPT_DAYS})`;
/** In the failed trigger: the message was folded into the rollups already (no pending row of it is left). */
const FOLDED = 'NOT EXISTS (SELECT 1 FROM message_stats_pending WHERE message_rowid = new.rowid)';

const bucketTable = (name: string, bucket: string) => `
  CREATE TABLE ${name} (
    session_id TEXT NOT NULL REFERENCES sessions (id) ON DELETE CASCADE,
    ${bucket} INTEGER NOT NULL,
    type TEXT NOT NULL,
    outgoing INTEGER NOT NULL DEFAULT 0,
    incoming INTEGER NOT NULL DEFAULT 0,
    failed INTEGER NOT NULL DEFAULT 0,
    PRIMARY KEY (session_id, ${bucket}, type)
  ) WITHOUT ROWID;`;

export const STATS_MIGRATIONS: Migration[] = [
  {
    id: '0017_message_stats',
    up(db: SqliteDb): void {
      // Rollups, so a statistics read touches sessions × buckets rows, never the messages: all-time totals per
      // session; per (session, epoch hour, type) for 24 h; per (session, epoch day, type) for 7 and 30 days; per
      // (session, day, chat); and per (session, window, chat) a running count over the last 2, 7 or 30 days,
      // indexed by count, so top chats read `limit` rows per session. The insert path pays one append: a trigger
      // copies what the rollups need of each new message into message_stats_pending (one row at the end of one
      // table, no index), and SqliteStatsRollup folds the pending rows into the rollups, a batch at a time, before
      // each statistics read and every few seconds, off the send path. A send turning failed bumps the rollups
      // directly when its message was folded already, else marks its pending row (rare, so a scan of the few
      // pending rows is fine). A window counts the chat-days after its watermark `expired_through`; the rollup
      // adds a pending message to a window exactly when its day is past that watermark, and SqliteStatsWindows
      // moves the watermark (subtracting the chat-days that left). Counters count traffic: deletes of messages
      // leave them; the cascade removes a session's. Rows older than STATS_KEPT_DAYS are not written, and a new
      // hour, day or chat-day row prunes its session's rows past that age (one index range), so the tables stay
      // bounded.
      db.exec(`
        CREATE TABLE message_stats_pending (
          seq INTEGER PRIMARY KEY,
          message_rowid INTEGER NOT NULL,
          session_id TEXT NOT NULL,
          chat_id TEXT NOT NULL,
          type TEXT NOT NULL,
          direction TEXT NOT NULL,
          t INTEGER NOT NULL,
          failed INTEGER NOT NULL
        );
        CREATE TABLE message_stats_totals (
          session_id TEXT PRIMARY KEY REFERENCES sessions (id) ON DELETE CASCADE,
          outgoing INTEGER NOT NULL DEFAULT 0,
          incoming INTEGER NOT NULL DEFAULT 0,
          failed INTEGER NOT NULL DEFAULT 0
        );
        ${bucketTable('message_stats_hours', 'hour')}
        ${bucketTable('message_stats_days', 'day')}
        CREATE TABLE message_stats_chats (
          session_id TEXT NOT NULL REFERENCES sessions (id) ON DELETE CASCADE,
          day INTEGER NOT NULL,
          chat_id TEXT NOT NULL,
          n INTEGER NOT NULL DEFAULT 0,
          last_at INTEGER NOT NULL,
          PRIMARY KEY (session_id, day, chat_id)
        ) WITHOUT ROWID;
        CREATE TABLE message_stats_windows (
          days INTEGER PRIMARY KEY,
          expired_through INTEGER NOT NULL
        );
        CREATE TABLE message_stats_window_chats (
          session_id TEXT NOT NULL REFERENCES sessions (id) ON DELETE CASCADE,
          days INTEGER NOT NULL,
          chat_id TEXT NOT NULL,
          n INTEGER NOT NULL,
          last_at INTEGER NOT NULL,
          PRIMARY KEY (session_id, days, chat_id)
        ) WITHOUT ROWID;
        CREATE INDEX message_stats_window_top ON message_stats_window_chats (session_id, days, n DESC, last_at DESC);
        INSERT INTO message_stats_windows (days, expired_through)
          VALUES ${TOP_CHAT_WINDOW_DAYS.map((days) => `(${days}, ${NOW} / 86400 - ${days})`).join(', ')};
        CREATE TRIGGER message_stats_insert AFTER INSERT ON messages BEGIN
          INSERT INTO message_stats_pending (message_rowid, session_id, chat_id, type, direction, t, failed)
            VALUES (new.rowid, new.session_id, new.chat_id, new.type, new.direction, ${time('new')},
              new.direction = 'outgoing' AND new.status = 'failed');
        END;
        CREATE TRIGGER message_stats_failed AFTER UPDATE OF status ON messages
        WHEN new.status = 'failed' AND old.status <> 'failed' AND new.direction = 'outgoing' BEGIN
          UPDATE message_stats_totals SET failed = failed + 1 WHERE session_id = new.session_id AND ${FOLDED};
          UPDATE message_stats_hours SET failed = failed + 1
            WHERE session_id = new.session_id AND hour = ${time('old')} / 3600 AND type = old.type AND ${FOLDED};
          UPDATE message_stats_days SET failed = failed + 1
            WHERE session_id = new.session_id AND day = ${time('old')} / 86400 AND type = old.type AND ${FOLDED};
          UPDATE message_stats_pending SET failed = 1 WHERE message_rowid = new.rowid;
        END;
        CREATE TRIGGER message_stats_hours_prune AFTER INSERT ON message_stats_hours BEGIN
          DELETE FROM message_stats_hours WHERE session_id = new.session_id AND hour < ${KEPT_HOUR};
        END;
        CREATE TRIGGER message_stats_days_prune AFTER INSERT ON message_stats_days BEGIN
          DELETE FROM message_stats_days WHERE session_id = new.session_id AND day < ${KEPT_DAY};
        END;
        CREATE TRIGGER message_stats_chats_prune AFTER INSERT ON message_stats_chats BEGIN
          DELETE FROM message_stats_chats WHERE session_id = new.session_id AND day < ${KEPT_DAY};
        END;
      `);
      backfill(db);
    },
  },
];

/** Counts the messages stored before the counters existed (the windows from the chat-days, past their watermark). */
function backfill(db: SqliteDb): void {
  const sums = `sum(direction = 'outgoing'), sum(direction = 'incoming'),
    sum(direction = 'outgoing' AND status = 'failed')`;
  db.exec(`
    INSERT INTO message_stats_totals (session_id, outgoing, incoming, failed)
      SELECT session_id, ${sums} FROM messages GROUP BY session_id;
    INSERT INTO message_stats_hours (session_id, hour, type, outgoing, incoming, failed)
      SELECT session_id, ${time('m')} / 3600 AS h, type, ${sums}
      FROM messages AS m WHERE ${time('m')} / 3600 >= ${KEPT_HOUR} GROUP BY session_id, h, type;
    INSERT INTO message_stats_days (session_id, day, type, outgoing, incoming, failed)
      SELECT session_id, ${time('m')} / 86400 AS d, type, ${sums}
      FROM messages AS m WHERE ${time('m')} / 86400 >= ${KEPT_DAY} GROUP BY session_id, d, type;
    INSERT INTO message_stats_chats (session_id, day, chat_id, n, last_at)
      SELECT session_id, ${time('m')} / 86400 AS d, chat_id, count(*), max(${time('m')})
      FROM messages AS m WHERE ${time('m')} / 86400 >= ${KEPT_DAY} GROUP BY session_id, d, chat_id;
    INSERT INTO message_stats_window_chats (session_id, days, chat_id, n, last_at)
      SELECT c.session_id, w.days, c.chat_id, sum(c.n), max(c.last_at)
      FROM message_stats_chats AS c JOIN message_stats_windows AS w ON c.day > w.expired_through
      GROUP BY c.session_id, w.days, c.chat_id;
  `);
}
