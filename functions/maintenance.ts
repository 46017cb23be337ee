/**
 * The maintenance Lambda (aws mode), scheduled daily by serverless.yml: audit retention through the same use case
 * the embedded host runs at startup and every 24 hours (host/maintenance.ts). AUDIT_RETENTION_DAYS 0 or less keeps
 * everything.
 */
import { pruneAudit } from '#shared/use-cases/audit/audit-log.js';
import { getDeps } from './deps.js';

export interface MaintenanceResult {
  /** Audit entries deleted by this run. */
  auditRemoved: number;
}

export async function handler(): Promise<MaintenanceResult> {
  const deps = getDeps();
  const retentionDays = deps.env.AUDIT_RETENTION_DAYS;
  const auditRemoved = await pruneAudit(deps.main.audit, deps.clock, retentionDays);
  deps.logger.info({ auditRemoved, retentionDays }, 'maintenance: audit retention applied');
  return { auditRemoved };
}
