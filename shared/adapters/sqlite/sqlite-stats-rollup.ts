/**
 * Folds the messages waiting in message_stats_pending into the statistics rollups (migration 0017_message_stats),
 * a batch at a time, each batch one transaction in the group commit: so a message insert pays one append and the
 * rollups' upserts run here, grouped (one upsert per session, hour and type of a batch instead of one per message).
 * Runs before each statistics read (a read sees every message stored before it) and every FOLD_EVERY_MS while the
 * store is open, so the pending table stays small when nobody reads. A pending message of a session deleted
 * meanwhile is dropped.
 */

import { KEPT_DAY, KEPT_HOUR } from './data-store-stats.migrations.js';
import type { SqliteDb } from './sqlite-database.js';
import { LazyStatement, writeSql } from './sqlite-store-support.js';

const STORE = 'Data store';
/** Pending rows folded per transaction. */
const BATCH = 20_000;
/** How often an open store folds on its own. */
export const FOLD_EVERY_MS = 2_000;

const PENDING = `FROM message_stats_pending AS p WHERE p.seq <= @last
  AND p.session_id IN (SELECT id FROM sessions)`;
const SUMS = `sum(p.direction = 'outgoing'), sum(p.direction = 'incoming'), sum(p.failed)`;
const ADD = `outgoing = outgoing + excluded.outgoing, incoming = incoming + excluded.incoming,
  failed = failed + excluded.failed`;

/** The fold of one data store handle. */
export class SqliteStatsRollup {
  private readonly lastPending: LazyStatement<[], number | null>;
  /** Folds one batch (synchronous, inside a transaction); answers whether rows are left. */
  readonly foldBatch: () => boolean;
  private timer: NodeJS.Timeout | undefined;

  constructor(private readonly db: SqliteDb) {
    this.lastPending = new LazyStatement(db, 'SELECT max(seq) FROM message_stats_pending', true);
    const firstPending = new LazyStatement<[], number | null>(
      db,
      'SELECT min(seq) FROM message_stats_pending',
      true,
    );
    const steps = [
      `INSERT INTO message_stats_totals (session_id, outgoing, incoming, failed)
       SELECT p.session_id, ${SUMS} ${PENDING} GROUP BY p.session_id ON CONFLICT DO UPDATE SET ${ADD}`,
      `INSERT INTO message_stats_hours (session_id, hour, type, outgoing, incoming, failed)
       SELECT p.session_id, p.t / 3600 AS h, p.type, ${SUMS} ${PENDING} AND p.t / 3600 >= ${KEPT_HOUR}
       GROUP BY p.session_id, h, p.type ON CONFLICT DO UPDATE SET ${ADD}`,
      `INSERT INTO message_stats_days (session_id, day, type, outgoing, incoming, failed)
       SELECT p.session_id, p.t / 86400 AS d, p.type, ${SUMS} ${PENDING} AND p.t / 86400 >= ${KEPT_DAY}
       GROUP BY p.session_id, d, p.type ON CONFLICT DO UPDATE SET ${ADD}`,
      `INSERT INTO message_stats_chats (session_id, day, chat_id, n, last_at)
       SELECT p.session_id, p.t / 86400 AS d, p.chat_id, count(*), max(p.t) ${PENDING}
         AND p.t / 86400 >= ${KEPT_DAY} GROUP BY p.session_id, d, p.chat_id
       ON CONFLICT DO UPDATE SET n = n + excluded.n, last_at = max(last_at, excluded.last_at)`,
      // A window takes the pending messages whose day is past its watermark (the days it covers).
      `INSERT INTO message_stats_window_chats (session_id, days, chat_id, n, last_at)
       SELECT p.session_id, w.days, p.chat_id, count(*), max(p.t)
       FROM message_stats_pending AS p JOIN message_stats_windows AS w ON p.t / 86400 > w.expired_through
       WHERE p.seq <= @last AND p.session_id IN (SELECT id FROM sessions) AND p.t / 86400 >= ${KEPT_DAY}
       GROUP BY p.session_id, w.days, p.chat_id
       ON CONFLICT DO UPDATE SET n = n + excluded.n, last_at = max(last_at, excluded.last_at)`,
      'DELETE FROM message_stats_pending WHERE seq <= @last',
    ].map((sql) => new LazyStatement<{ last: number }>(db, sql));
    this.foldBatch = () => {
      const first = firstPending.get();
      const last = this.lastPending.get();
      if (first === null || first === undefined || last === null || last === undefined) return false;
      const upTo = Math.min(last, first + BATCH - 1);
      for (const step of steps) step.run({ last: upTo });
      return upTo < last;
    };
  }

  /** Folds every message pending now (nothing to do: one read of the pending table's last row). */
  async catchUp(): Promise<void> {
    if (this.lastPending.get() == null) return;
    const fold = this.db.transaction(this.foldBatch);
    while (await writeSql(this.db, STORE, fold)) {
      // Another batch: each its own transaction, so a large backlog never holds the write lock long.
    }
  }

  /** Folds every FOLD_EVERY_MS until `stop` (the timer keeps no process alive; a failure waits for the next). */
  start(onError: (error: unknown) => void): void {
    this.timer ??= setInterval(() => {
      if (this.db.open) this.catchUp().catch(onError);
    }, FOLD_EVERY_MS);
    this.timer.unref();
  }

  stop(): void {
    clearInterval(this.timer);
    this.timer = undefined;
  }
}
