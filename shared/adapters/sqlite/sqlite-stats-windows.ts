/**
 * Moves the top-chat windows of the statistics (migration 0017_message_stats) forward to the day asked for: a
 * window counts the chat-days after its watermark `expired_through`, so making it cover the `days` days ending
 * today subtracts the chat-days that left it (one day's rows each day) and raises the watermark, in one transaction
 * with the group commit's other writes; the insert trigger, which adds a message to the windows whose watermark its
 * day is past, sees the new watermark at once. A window left behind longer than the chat-days are kept is counted
 * again from them instead. Reads call it first; once a window is current it costs one row read.
 */
import { STATS_KEPT_DAYS, type TopChatWindow } from '#shared/domain/message-stats.js';
import type { SqliteDb } from './sqlite-database.js';
import { LazyStatement, writeSql } from './sqlite-store-support.js';

const STORE = 'Data store';

/** The windows' watermarks and how to move them. */
export class SqliteStatsWindows {
  private readonly watermark: LazyStatement<[number], number>;
  private readonly move: (days: TopChatWindow, today: number) => void;

  /** `foldPending` folds one batch of pending messages (SqliteStatsRollup), so none is counted across a move. */
  constructor(
    private readonly db: SqliteDb,
    foldPending: () => boolean,
  ) {
    this.watermark = new LazyStatement(
      db,
      'SELECT expired_through FROM message_stats_windows WHERE days = ?',
      true,
    );
    const subtract = new LazyStatement<{ days: number; from: number; to: number }>(
      db,
      `UPDATE message_stats_window_chats AS w SET n = w.n - c.n
       FROM (SELECT session_id, chat_id, sum(n) AS n FROM message_stats_chats WHERE day > @from AND day <= @to
             GROUP BY session_id, chat_id) AS c
       WHERE w.session_id = c.session_id AND w.days = @days AND w.chat_id = c.chat_id`,
    );
    const dropEmpty = new LazyStatement<[number]>(
      db,
      'DELETE FROM message_stats_window_chats WHERE days = ? AND n <= 0',
    );
    const clear = new LazyStatement<[number]>(db, 'DELETE FROM message_stats_window_chats WHERE days = ?');
    const recount = new LazyStatement<{ days: number; after: number }>(
      db,
      `INSERT INTO message_stats_window_chats (session_id, days, chat_id, n, last_at)
       SELECT session_id, @days, chat_id, sum(n), max(last_at) FROM message_stats_chats WHERE day > @after
       GROUP BY session_id, chat_id`,
    );
    const setWatermark = new LazyStatement<[number, number]>(
      db,
      'UPDATE message_stats_windows SET expired_through = ? WHERE days = ?',
    );
    this.move = db.transaction((days: TopChatWindow, today: number) => {
      while (foldPending()) {
        // Every pending message into the chat-days and windows first, under the watermark it was stored under.
      }
      const from = this.watermark.get(days) ?? 0;
      const to = today - days;
      if (from >= to) return; // another call moved it meanwhile
      if (from < today - STATS_KEPT_DAYS) {
        clear.run(days);
        recount.run({ days, after: to });
      } else {
        subtract.run({ days, from, to });
        dropEmpty.run(days);
      }
      setWatermark.run(to, days);
    });
  }

  /** Makes the window of `days` cover the `days` UTC days ending with epoch day `today` (never moves it back). */
  async advance(days: TopChatWindow, today: number): Promise<void> {
    const current = this.watermark.get(days) ?? 0;
    if (current >= today - days) return;
    await writeSql(this.db, STORE, () => this.move(days, today));
  }
}
