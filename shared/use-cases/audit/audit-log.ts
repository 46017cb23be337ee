/** Reading the audit log (its retention: use-cases/maintenance/retention.ts). */
import type { AuditPage, AuditQuery } from '#shared/domain/audit.js';
import { type Caller, callerSessionScope } from '#shared/domain/caller.js';
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
