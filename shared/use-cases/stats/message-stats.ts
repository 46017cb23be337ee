import type { Caller } from '#shared/domain/caller.js';
import {
  addHour,
  dayOf,
  type HourCounts,
  hourOf,
  STATS_PERIODS,
  type StatsPeriod,
  TOP_CHAT_WINDOWS,
} from '#shared/domain/message-stats.js';
import type { CoreDeps } from '#shared/use-cases/core-deps.js';
import { epochSeconds, sessionsInScope, traffic } from './stats-support.js';

/** How many chats `topChats` lists. */
export const TOP_CHATS = 10;

/** GET /api/stats/messages?period=…. */
export interface MessageStats {
  period: StatsPeriod;
  /** Oldest first: the last 24 hours by hour, or the last 7 or 30 UTC days by day, the current one included. */
  timeSeries: { timestamp: string; sent: number; received: number }[];
  /** Messages of the period per stored type, both directions. */
  byType: Record<string, number>;
  /** Every session in scope, busiest first. */
  bySession: { sessionId: string; name: string; sent: number; received: number }[];
  /** The chats with the most messages, counted over whole UTC days back to the period's first. */
  topChats: { sessionId: string; chatId: string; messageCount: number }[];
}

const iso = (epochSeconds: number) => new Date(epochSeconds * 1000).toISOString();

/** The period's numbers over the caller's sessions, from the hour or day rollups and a top-chat window. */
export async function messageStats(
  deps: Pick<CoreDeps, 'data' | 'clock'>,
  caller: Caller,
  period: StatsPeriod,
): Promise<MessageStats> {
  const { buckets, unit } = STATS_PERIODS[period];
  const sessions = await sessionsInScope(deps, caller);
  const ids = sessions.map((s) => s.id);
  const now = epochSeconds(deps.clock.now());
  const span = unit === 'hour' ? 1 : 24; // hours per bucket
  const lastBucket = unit === 'hour' ? hourOf(now) : dayOf(now);
  const firstHour = (lastBucket - buckets + 1) * span;
  const [rollups, chats] = await Promise.all([
    unit === 'hour'
      ? deps.data.messageStats.hours(ids, firstHour, lastBucket)
      : deps.data.messageStats.days(ids, lastBucket - buckets + 1, lastBucket),
    deps.data.messageStats.topChats(ids, { days: TOP_CHAT_WINDOWS[period], today: dayOf(now) }, TOP_CHATS),
  ]);
  const series = Array.from({ length: buckets }, (_, i) => emptyHour('', firstHour + i * span));
  const perSession = new Map(ids.map((id) => [id, emptyHour(id, firstHour)]));
  const byType: Record<string, number> = {};
  for (const hour of rollups) {
    const bucket = series[Math.floor((hour.hour - firstHour) / span)];
    if (bucket) addHour(bucket, hour);
    const session = perSession.get(hour.sessionId);
    if (session) addHour(session, hour);
  }
  for (const bucket of series) {
    for (const [type, n] of Object.entries(bucket.byType)) byType[type] = (byType[type] ?? 0) + n;
  }
  const bySession = sessions
    .map((s) => {
      const { sent, received } = traffic(perSession.get(s.id) ?? emptyHour(s.id, 0));
      return { sessionId: s.id, name: s.name, sent, received };
    })
    .sort((a, b) => b.sent + b.received - (a.sent + a.received) || (a.name < b.name ? -1 : 1));
  return {
    period,
    timeSeries: series.map((bucket) => {
      const { sent, received } = traffic(bucket);
      return { timestamp: iso(bucket.hour * 3600), sent, received };
    }),
    byType,
    bySession,
    topChats: chats.map((c) => ({ sessionId: c.sessionId, chatId: c.chatId, messageCount: c.count })),
  };
}

function emptyHour(sessionId: string, hour: number): HourCounts {
  return { sessionId, hour, outgoing: 0, incoming: 0, failed: 0, byType: {} };
}
