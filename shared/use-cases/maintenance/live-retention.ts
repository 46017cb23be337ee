/**
 * Retention as the run-time settings (GET/PUT /api/infra/config) set it: each run reads the policy in force then,
 * so a saved AUDIT_RETENTION_DAYS or WEBHOOK_FAILURE_RETENTION_DAYS takes effect at the next run without restart.
 */
import type { Env } from '#shared/config/env.js';
import type { RuntimeSettingName } from '#shared/config/runtime-settings.js';
import type { Clock } from '#shared/ports/clock.port.js';
import type { DataStore } from '#shared/ports/stores.port.js';
import { effectiveSettings } from '#shared/use-cases/infra/live-settings.js';
import {
  pruneOlderThan,
  type RetentionJob,
  type RetentionPolicy,
  type RetentionStores,
  retentionJobs,
  retentionPolicy,
} from './retention.js';

type LiveRetentionDeps = { env: Parameters<typeof effectiveSettings>[0]; data: Pick<DataStore, 'settings'> };

const SETTING: Record<keyof RetentionPolicy, RuntimeSettingName> = {
  audit: 'AUDIT_RETENTION_DAYS',
  deliveryFailures: 'WEBHOOK_FAILURE_RETENTION_DAYS',
};

/** The policy in force now: the environment's, overridden by the saved settings it does not pin (0 keeps all). */
export async function currentRetentionPolicy(deps: LiveRetentionDeps): Promise<RetentionPolicy> {
  const settings = effectiveSettings(deps.env, (await deps.data.settings.read()).overrides);
  return {
    audit: settings.AUDIT_RETENTION_DAYS > 0 ? settings.AUDIT_RETENTION_DAYS : null,
    deliveryFailures:
      settings.WEBHOOK_FAILURE_RETENTION_DAYS > 0 ? settings.WEBHOOK_FAILURE_RETENTION_DAYS : null,
  };
}

/**
 * The host's jobs, each reading the policy when it runs. `retentionDays` is the start's value for the log, and null
 * (never scheduled) only where the environment pins the retention off, which no saved setting can change; a table
 * off at start but not pinned is scheduled as 0 and prunes once a setting turns it on.
 */
export function liveRetentionJobs(
  stores: RetentionStores,
  clock: Clock,
  deps: LiveRetentionDeps & { env: Pick<Env, 'AUDIT_RETENTION_DAYS' | 'WEBHOOK_FAILURE_RETENTION_DAYS'> },
): RetentionJob[] {
  const boot = retentionPolicy(deps.env);
  return retentionJobs(stores, clock, boot).map((job) => ({
    ...job,
    retentionDays: boot[job.table] ?? (deps.env.ENV_PINNED.includes(SETTING[job.table]) ? null : 0),
    run: async () =>
      pruneOlderThan(stores[job.table], clock, (await currentRetentionPolicy(deps))[job.table]),
  }));
}
