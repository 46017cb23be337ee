/** Reading and pruning the audit log. */
import type { AuditPage, AuditQuery } from '#shared/domain/audit.js';
import { type Caller, callerSessionScope } from '#shared/domain/caller.js';
import type { AuditLogStore } from '#shared/ports/audit-log-store.port.js';
import type { Clock } from '#shared/ports/clock.port.js';
import type { CoreDeps } from '#shared/use-cases/core-deps.js';

/** Audit entries newest first with the unpaginated total, limited to a scoped caller's sessions. */
export async function listAudit(
  deps: Pick<CoreDeps, 'main'>,
  caller: Caller,
  query: AuditQuery,
): Promise<AuditPage> {
  const scope = callerSessionScope(caller);
  const { limit, offset, ...filter } = query;
  return deps.main.audit.query({ ...filter, ...(scope ? { sessionIds: scope } : {}) }, { limit, offset });
}

/** Deletes entries older than `retentionDays`; null (0 or less configured) keeps everything. */
export async function pruneAudit(
  audit: AuditLogStore,
  clock: Clock,
  retentionDays: number | null,
): Promise<number> {
  if (retentionDays === null) return 0;
  const cutoff = new Date(clock.now().getTime() - retentionDays * 86_400_000);
  return audit.pruneBefore(cutoff);
}
