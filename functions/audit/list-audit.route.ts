import { defineRoute } from '#functions/http/route.js';
import { AuditPage, AuditQuery } from '#shared/domain/audit.js';
import { listAudit } from '#shared/use-cases/audit/audit-log.js';

/** GET /api/audit: `{data, total}` newest first, filtered by action, severity, session and key. */
export const listAuditRoute = defineRoute({
  method: 'GET',
  path: '/api/audit',
  summary: 'Query the audit log',
  tag: 'Audit',
  auth: { role: 'admin' },
  query: AuditQuery,
  response: AuditPage,
  success: 200,
  run: ({ deps, caller, query }) => listAudit(deps, caller, query),
});
