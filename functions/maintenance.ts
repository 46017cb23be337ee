/**
 * The maintenance Lambda (aws mode), scheduled daily by serverless.yml: the retention sweep of the audit log
 * (AUDIT_RETENTION_DAYS) and of webhook delivery-failure rows (WEBHOOK_FAILURE_RETENTION_DAYS), the same use case the
 * embedded host runs at startup and every 24 hours (host/maintenance.ts); 0 or less keeps a table whole. Also the
 * sweep of expired status updates and their files (the hosts run it hourly as well).
 */
import { currentRetentionPolicy } from '#shared/use-cases/maintenance/live-retention.js';
import { applyRetention } from '#shared/use-cases/maintenance/retention.js';
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
  const policy = await currentRetentionPolicy(deps);
  // Side by side and both to the end: a failing table leaves the other work done, then fails the run (reported).
  const [retention, statuses] = await Promise.allSettled([
    applyRetention(
      { audit: deps.main.audit, deliveryFailures: deps.data.deliveryFailures },
      deps.clock,
      policy,
    ),
    sweepExpiredStatuses({ ...deps, statuses: deps.data.statuses }),
  ]);
  if (retention.status === 'rejected') throw retention.reason;
  if (statuses.status === 'rejected') throw statuses.reason;
  const { audit: auditRemoved, deliveryFailures: deliveryFailuresRemoved } = retention.value;
  const statusesRemoved = statuses.value;
  deps.logger.info(
    { auditRemoved, deliveryFailuresRemoved, statusesRemoved, retentionDays: policy },
    'maintenance: retention applied',
  );
  return { auditRemoved, deliveryFailuresRemoved, statusesRemoved };
}
