/** What the statistics use cases share: the sessions a caller's numbers cover, and sums of hour counters. */
import { type Caller, callerSessionScope } from '#shared/domain/caller.js';
import { type HourCounts, type MessageTotals, noTotals } from '#shared/domain/message-stats.js';
import type { Session } from '#shared/domain/session.js';
import type { CoreDeps } from '#shared/use-cases/core-deps.js';

/** Sessions number in the hundreds (one DynamoDB partition holds them all); this bounds one listing. */
const MAX_SESSIONS = 10_000;

/** The sessions whose numbers the caller sees: a session-scoped key's own, otherwise every one. */
export async function sessionsInScope(deps: Pick<CoreDeps, 'data'>, caller: Caller): Promise<Session[]> {
  const scope = callerSessionScope(caller);
  return deps.data.sessions.list(scope ? { ids: scope } : {}, { limit: MAX_SESSIONS, offset: 0 });
}

/** Sent, received and failed as the routes answer them: a failed send is not counted as sent. */
export function traffic(counts: MessageTotals): { sent: number; received: number; failed: number } {
  return { sent: counts.outgoing - counts.failed, received: counts.incoming, failed: counts.failed };
}

/** The sum of hour counters (of any sessions and hours). */
export function sumHours(hours: readonly HourCounts[]): MessageTotals {
  const sum = noTotals();
  for (const hour of hours) {
    sum.outgoing += hour.outgoing;
    sum.incoming += hour.incoming;
    sum.failed += hour.failed;
  }
  return sum;
}

/** Now as epoch seconds. */
export const epochSeconds = (date: Date) => Math.floor(date.getTime() / 1000);
