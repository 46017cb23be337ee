import type { ChatActivity, HourCounts, MessageTotals, TopChatWindow } from '#shared/domain/message-stats.js';

/**
 * Reads of the message counters (shared/domain/message-stats.ts), which the message store keeps on every insert and
 * failed send: SQLite by triggers in the same transaction, DynamoDB by counter updates after the message's
 * transaction, memory in step. Every read takes the sessions it covers and answers from rollups alone, never from
 * the messages: its cost follows sessions × buckets (hours, days, or the top chats asked for), not messages.
 */
export interface MessageStatsStore {
  /** All-time counts per session; a session without messages is absent. */
  totals(sessionIds: readonly string[]): Promise<Map<string, MessageTotals>>;
  /** Per session and epoch hour in [fromHour, toHour], the hours with messages only, in no particular order. */
  hours(sessionIds: readonly string[], fromHour: number, toHour: number): Promise<HourCounts[]>;
  /**
   * Per session and epoch day in [fromDay, toDay], the days with messages only, in no particular order; `hour` is
   * the day's first epoch hour.
   */
  days(sessionIds: readonly string[], fromDay: number, toDay: number): Promise<HourCounts[]>;
  /**
   * The chats with the most messages over the `window.days` UTC days ending with epoch day `window.today`, most
   * first (then the latest active), at most `limit` over all the sessions.
   */
  topChats(
    sessionIds: readonly string[],
    window: { days: TopChatWindow; today: number },
    limit: number,
  ): Promise<ChatActivity[]>;
  /** Forgets a session's counters (session delete; SQLite's cascade does it too). */
  deleteBySession(sessionId: string): Promise<void>;
}
