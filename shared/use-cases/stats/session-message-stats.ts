import type { Caller } from '#shared/domain/caller.js';
import {
  addHour,
  dayOf,
  type HourCounts,
  hourOf,
  noTotals,
  TOP_CHAT_WINDOWS,
} from '#shared/domain/message-stats.js';
import type { SessionStatus } from '#shared/domain/session.js';
import type { CoreDeps } from '#shared/use-cases/core-deps.js';
import { loadSession } from '#shared/use-cases/sessions/load-session.js';
import { TOP_CHATS } from './message-stats.js';
import { epochSeconds, sumHours, traffic } from './stats-support.js';

/** Days `topChats` looks back over (whole UTC days, today included). */
export const SESSION_TOP_CHAT_DAYS = TOP_CHAT_WINDOWS['30d'];

/** GET /api/stats/sessions/{sessionId}. */
export interface SessionMessageStats {
  session: { id: string; name: string; status: SessionStatus };
  /** All time, except `today` (sent and received since UTC midnight). */
  messages: { sent: number; received: number; today: number; failed: number };
  /** The chats with the most messages over the last SESSION_TOP_CHAT_DAYS days; `lastActive` ISO. */
  topChats: { chatId: string; count: number; lastActive: string }[];
  /** The last 24 hours by UTC hour of day (0–23), the oldest hour first. */
  hourlyActivity: { hour: number; sent: number; received: number }[];
}

/** One session's numbers (404 unknown, 403 outside a scoped key's sessions), from the counters. */
export async function sessionMessageStats(
  deps: Pick<CoreDeps, 'data' | 'clock'>,
  caller: Caller,
  sessionId: string,
): Promise<SessionMessageStats> {
  const session = await loadSession(deps.data.sessions, caller, sessionId);
  const now = epochSeconds(deps.clock.now());
  const lastHour = hourOf(now);
  const ids = [session.id];
  const [totals, hours, chats] = await Promise.all([
    deps.data.messageStats.totals(ids),
    deps.data.messageStats.hours(ids, lastHour - 23, lastHour),
    deps.data.messageStats.topChats(ids, { days: SESSION_TOP_CHAT_DAYS, today: dayOf(now) }, TOP_CHATS),
  ]);
  const all = traffic(totals.get(session.id) ?? noTotals());
  const today = traffic(sumHours(hours.filter((h) => h.hour >= dayOf(now) * 24)));
  const activity: HourCounts[] = Array.from({ length: 24 }, (_, i) => ({
    sessionId: session.id,
    hour: lastHour - 23 + i,
    ...noTotals(),
    byType: {},
  }));
  for (const hour of hours) {
    const slot = activity[hour.hour - (lastHour - 23)];
    if (slot) addHour(slot, hour);
  }
  return {
    session: { id: session.id, name: session.name, status: session.status },
    messages: {
      sent: all.sent,
      received: all.received,
      today: today.sent + today.received,
      failed: all.failed,
    },
    topChats: chats.map((c) => ({
      chatId: c.chatId,
      count: c.count,
      lastActive: new Date(c.lastActive * 1000).toISOString(),
    })),
    hourlyActivity: activity.map((slot) => ({ hour: slot.hour % 24, ...pick(traffic(slot)) })),
  };
}

const pick = ({ sent, received }: { sent: number; received: number }) => ({ sent, received });
