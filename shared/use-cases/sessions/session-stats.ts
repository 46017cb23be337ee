import { type Caller, callerSessionScope } from '#shared/domain/caller.js';
import { SESSION_STATUSES, type SessionStatus } from '#shared/domain/session.js';
import type { CoreDeps } from '#shared/use-cases/core-deps.js';

export interface SessionStats {
  total: number;
  /** Engines running on this node. */
  active: number;
  ready: number;
  disconnected: number;
  byStatus: Record<SessionStatus, number>;
  /** Process memory in MB (rounded). */
  memoryUsage: { heapUsed: number; heapTotal: number; rss: number };
}

const mb = (bytes: number) => Math.round(bytes / 1024 / 1024);

/** Counts by status (scoped to the caller's sessions) and this node's engines and memory. */
export async function sessionStats(
  deps: Pick<CoreDeps, 'data' | 'host'>,
  caller: Caller,
): Promise<SessionStats> {
  const scope = callerSessionScope(caller);
  const [counts, host] = await Promise.all([
    deps.data.sessions.countByStatus(scope ? { ids: scope } : {}),
    deps.host.stats(scope),
  ]);
  const byStatus = Object.fromEntries(SESSION_STATUSES.map((s) => [s, counts[s] ?? 0])) as Record<
    SessionStatus,
    number
  >;
  const memory = process.memoryUsage();
  return {
    total: Object.values(byStatus).reduce((sum, n) => sum + n, 0),
    active: host.activeEngines,
    ready: byStatus.ready,
    disconnected: byStatus.disconnected,
    byStatus,
    memoryUsage: { heapUsed: mb(memory.heapUsed), heapTotal: mb(memory.heapTotal), rss: mb(memory.rss) },
  };
}
