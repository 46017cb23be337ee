/**
 * MessageStatsStore over the data SQLite file: reads of the rollups of migration 0017_message_stats
 * (data-store-stats.migrations.ts), after folding the messages pending (sqlite-stats-rollup.ts). Each read is an index range per session (the tables' keys start with the
 * session): hours or days × types, or the `limit` first rows of a top-chat window by count, so its cost follows
 * sessions × buckets, never the messages.
 */
import type { ChatActivity, HourCounts, MessageTotals, TopChatWindow } from '#shared/domain/message-stats.js';
import type { MessageStatsStore } from '#shared/ports/message-stats-store.port.js';
import type { SqliteDb } from './sqlite-database.js';
import { SqliteStatsRollup } from './sqlite-stats-rollup.js';
import { SqliteStatsWindows } from './sqlite-stats-windows.js';
import { LazyStatement, runSql } from './sqlite-store-support.js';

const STORE = 'Data store';
const SESSIONS = 'session_id IN (SELECT value FROM json_each(@ids))';

interface BucketRow extends MessageTotals {
  sessionId: string;
  bucket: number;
  type: string;
}

type Range = { ids: string; from: number; to: number };

/** The counters in SQLite. */
export class SqliteMessageStatsStore implements MessageStatsStore {
  private readonly totalsOf: LazyStatement<{ ids: string }, MessageTotals & { sessionId: string }>;
  private readonly hoursOf: LazyStatement<Range, BucketRow>;
  private readonly daysOf: LazyStatement<Range, BucketRow>;
  private readonly topOf: LazyStatement<{ id: string; days: number; limit: number }, ChatActivity>;
  private readonly windows: SqliteStatsWindows;
  /** Folds the pending messages into the rollups: before each read, and on a timer while open. */
  readonly rollup: SqliteStatsRollup;
  private readonly deletes: LazyStatement<[string]>[];

  constructor(db: SqliteDb) {
    this.totalsOf = new LazyStatement(
      db,
      `SELECT session_id AS sessionId, outgoing, incoming, failed FROM message_stats_totals WHERE ${SESSIONS}`,
    );
    const buckets = (table: string, column: string) =>
      new LazyStatement<Range, BucketRow>(
        db,
        `SELECT session_id AS sessionId, ${column} AS bucket, type, outgoing, incoming, failed FROM ${table}
         WHERE ${SESSIONS} AND ${column} BETWEEN @from AND @to`,
      );
    this.hoursOf = buckets('message_stats_hours', 'hour');
    this.daysOf = buckets('message_stats_days', 'day');
    this.topOf = new LazyStatement(
      db,
      `SELECT session_id AS sessionId, chat_id AS chatId, n AS count, last_at AS lastActive
       FROM message_stats_window_chats WHERE session_id = @id AND days = @days
       ORDER BY n DESC, last_at DESC LIMIT @limit`,
    );
    this.rollup = new SqliteStatsRollup(db);
    this.windows = new SqliteStatsWindows(db, this.rollup.foldBatch);
    this.deletes = [
      'message_stats_totals',
      'message_stats_hours',
      'message_stats_days',
      'message_stats_chats',
      'message_stats_window_chats',
      'message_stats_pending',
    ].map((table) => new LazyStatement<[string]>(db, `DELETE FROM ${table} WHERE session_id = ?`));
  }

  async totals(sessionIds: readonly string[]): Promise<Map<string, MessageTotals>> {
    await this.rollup.catchUp();
    const rows = runSql(STORE, () => this.totalsOf.all({ ids: JSON.stringify(sessionIds) }));
    return new Map(
      rows.map((row) => [
        row.sessionId,
        { outgoing: row.outgoing, incoming: row.incoming, failed: row.failed },
      ]),
    );
  }

  async hours(sessionIds: readonly string[], fromHour: number, toHour: number): Promise<HourCounts[]> {
    await this.rollup.catchUp();
    const rows = runSql(STORE, () =>
      this.hoursOf.all({ ids: JSON.stringify(sessionIds), from: fromHour, to: toHour }),
    );
    return foldTypes(rows, 1);
  }

  async days(sessionIds: readonly string[], fromDay: number, toDay: number): Promise<HourCounts[]> {
    await this.rollup.catchUp();
    const rows = runSql(STORE, () =>
      this.daysOf.all({ ids: JSON.stringify(sessionIds), from: fromDay, to: toDay }),
    );
    return foldTypes(rows, 24);
  }

  async topChats(
    sessionIds: readonly string[],
    window: { days: TopChatWindow; today: number },
    limit: number,
  ): Promise<ChatActivity[]> {
    await this.rollup.catchUp();
    await this.windows.advance(window.days, window.today);
    const chats = runSql(STORE, () =>
      sessionIds.flatMap((id) => this.topOf.all({ id, days: window.days, limit })),
    );
    return chats
      .sort((a, b) => b.count - a.count || b.lastActive - a.lastActive || (a.chatId < b.chatId ? -1 : 1))
      .slice(0, limit);
  }

  async deleteBySession(sessionId: string): Promise<void> {
    runSql(STORE, () => {
      for (const statement of this.deletes) statement.run(sessionId);
    });
  }
}

/** Rows per (session, bucket, type) as one HourCounts per (session, bucket); `hour` is bucket × `hoursPerBucket`. */
function foldTypes(rows: readonly BucketRow[], hoursPerBucket: number): HourCounts[] {
  const byKey = new Map<string, HourCounts>();
  for (const row of rows) {
    const key = `${row.sessionId}/${row.bucket}`;
    let counts = byKey.get(key);
    if (counts === undefined) {
      counts = {
        sessionId: row.sessionId,
        hour: row.bucket * hoursPerBucket,
        outgoing: 0,
        incoming: 0,
        failed: 0,
        byType: {},
      };
      byKey.set(key, counts);
    }
    counts.outgoing += row.outgoing;
    counts.incoming += row.incoming;
    counts.failed += row.failed;
    counts.byType[row.type] = (counts.byType[row.type] ?? 0) + row.outgoing + row.incoming;
  }
  return [...byKey.values()];
}
