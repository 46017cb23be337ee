/**
 * Message statistics: what the counters kept on write hold and how a message falls into them. The counters count
 * traffic, not what is stored: a message counts when it is stored (by direction and type, in the hour and UTC day of
 * its time) and an outgoing one again as failed when its send fails; deleting messages (a cleared chat, retention)
 * leaves them, deleting the session removes them. The type counted is the one stored first (a later revoke or edit
 * does not move it). Hour and day counters are kept for STATS_KEPT_DAYS, which covers the longest period asked for.
 */

/** The periods GET /api/stats/messages answers, with how many buckets of what size. */
export const STATS_PERIODS = {
  '24h': { buckets: 24, unit: 'hour' },
  '7d': { buckets: 7, unit: 'day' },
  '30d': { buckets: 30, unit: 'day' },
} as const;
export type StatsPeriod = keyof typeof STATS_PERIODS;

/**
 * The windows of whole UTC days (today included) over which top chats are counted: 24h's topChats counts from the
 * UTC day of its first hour (yesterday), 7d and 30d over their days; a session's statistics over 30 days.
 */
export const TOP_CHAT_WINDOWS = { '24h': 2, '7d': 7, '30d': 30 } as const satisfies Record<
  StatsPeriod,
  number
>;
/** A top-chat window's length in days. */
export type TopChatWindow = (typeof TOP_CHAT_WINDOWS)[StatsPeriod];
/** The window days of every top-chat window, each kept as its own running count. */
export const TOP_CHAT_WINDOW_DAYS: readonly TopChatWindow[] = [2, 7, 30];

/** Days the hour and day counters are kept (the 30-day period plus a day and a margin for clock skew). */
export const STATS_KEPT_DAYS = 32;

const HOUR = 3600;
const DAY = 86_400;

/** A message's time for the statistics: its network timestamp (epoch s), else when it was stored. */
export function statsTime(message: { timestamp: number | null; createdAt: string }): number {
  return message.timestamp ?? Math.floor(Date.parse(message.createdAt) / 1000);
}

/** The epoch hour (hours since 1970, UTC) of an epoch-seconds time. */
export const hourOf = (epochSeconds: number): number => Math.floor(epochSeconds / HOUR);
/** The epoch day (UTC days since 1970) of an epoch-seconds time. */
export const dayOf = (epochSeconds: number): number => Math.floor(epochSeconds / DAY);

/** All-time counts of one session. `outgoing` includes the sends that failed (`failed`). */
export interface MessageTotals {
  outgoing: number;
  incoming: number;
  failed: number;
}

/** One session's counts in one epoch hour, with the stored types (both directions). */
export interface HourCounts extends MessageTotals {
  sessionId: string;
  hour: number;
  byType: Record<string, number>;
}

/** A chat's messages (both directions) over a run of days, and its latest message time (epoch s). */
export interface ChatActivity {
  sessionId: string;
  chatId: string;
  count: number;
  lastActive: number;
}

/** An empty tally. */
export const noTotals = (): MessageTotals => ({ outgoing: 0, incoming: 0, failed: 0 });

/** Adds `b` into `a` (counts and types). */
export function addHour(a: HourCounts, b: HourCounts): void {
  a.outgoing += b.outgoing;
  a.incoming += b.incoming;
  a.failed += b.failed;
  for (const [type, n] of Object.entries(b.byType)) a.byType[type] = (a.byType[type] ?? 0) + n;
}
