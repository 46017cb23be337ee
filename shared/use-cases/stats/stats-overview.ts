import type { Caller } from '#shared/domain/caller.js';
import { dayOf } from '#shared/domain/message-stats.js';
import { RUNNING_STATUSES, SESSION_STATUSES, type SessionStatus } from '#shared/domain/session.js';
import type { CoreDeps } from '#shared/use-cases/core-deps.js';
import { epochSeconds, sessionsInScope, sumHours, traffic } from './stats-support.js';

/** GET /api/stats/overview. */
export interface StatsOverview {
  /** `active`: sessions whose engine runs or should (RUNNING_STATUSES). */
  sessions: { active: number; total: number; byStatus: Record<SessionStatus, number> };
  /** All time; `today` since UTC midnight. */
  messages: { sent: number; received: number; failed: number; today: { sent: number; received: number } };
}

/** Sessions by status and message counts, over the caller's sessions, from the counters. */
export async function statsOverview(
  deps: Pick<CoreDeps, 'data' | 'clock'>,
  caller: Caller,
): Promise<StatsOverview> {
  const sessions = await sessionsInScope(deps, caller);
  const ids = sessions.map((s) => s.id);
  const now = epochSeconds(deps.clock.now());
  const [totals, today] = await Promise.all([
    deps.data.messageStats.totals(ids),
    deps.data.messageStats.days(ids, dayOf(now), dayOf(now)),
  ]);
  const byStatus = Object.fromEntries(SESSION_STATUSES.map((s) => [s, 0])) as Record<SessionStatus, number>;
  for (const session of sessions) byStatus[session.status] += 1;
  const all = { outgoing: 0, incoming: 0, failed: 0 };
  for (const counts of totals.values()) {
    all.outgoing += counts.outgoing;
    all.incoming += counts.incoming;
    all.failed += counts.failed;
  }
  const todays = traffic(sumHours(today));
  return {
    sessions: {
      active: sessions.filter((s) => RUNNING_STATUSES.has(s.status)).length,
      total: sessions.length,
      byStatus,
    },
    messages: { ...traffic(all), today: { sent: todays.sent, received: todays.received } },
  };
}
