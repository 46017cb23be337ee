/**
 * The maintenance Lambda (aws mode), scheduled daily by serverless.yml: retention of the audit log
 * (AUDIT_RETENTION_DAYS) and of webhook delivery-failure rows (WEBHOOK_FAILURE_RETENTION_DAYS) through the same use
 * cases the embedded host runs at startup and every 24 hours (host/maintenance.ts). 0 or less keeps everything.
 * Also the sweep of expired status updates and their files (the hosts run it hourly as well).
 */
import { pruneAudit } from '#shared/use-cases/audit/audit-log.js';
import { pruneDeliveryFailures } from '#shared/use-cases/maintenance/prune-delivery-failures.js';
import { sweepExpiredStatuses } from '#shared/use-cases/maintenance/sweep-expired-statuses.js';
import { depsReady, getDeps } from './deps.js';

export interface MaintenanceResult {
  /** Audit entries deleted by this run. */
  auditRemoved: number;
  /** Webhook delivery-failure rows deleted by this run. */
  deliveryFailuresRemoved: number;
  /** Expired status updates deleted by this run. */
  statusesRemoved: number;
}

export async function handler(): Promise<MaintenanceResult> {
  await depsReady();
  const deps = getDeps();
  const { AUDIT_RETENTION_DAYS, WEBHOOK_FAILURE_RETENTION_DAYS } = deps.env;
  const auditRemoved = await pruneAudit(deps.main.audit, deps.clock, AUDIT_RETENTION_DAYS);
  const deliveryFailuresRemoved = await pruneDeliveryFailures(
    deps.data.deliveryFailures,
    deps.clock,
    WEBHOOK_FAILURE_RETENTION_DAYS,
  );
  const statusesRemoved = await sweepExpiredStatuses({ ...deps, statuses: deps.data.statuses });
  deps.logger.info(
    {
      auditRemoved,
      deliveryFailuresRemoved,
      statusesRemoved,
      AUDIT_RETENTION_DAYS,
      WEBHOOK_FAILURE_RETENTION_DAYS,
    },
    'maintenance: retention applied',
  );
  return { auditRemoved, deliveryFailuresRemoved, statusesRemoved };
}
