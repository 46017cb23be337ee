/**
 * Periodic housekeeping of the host process: retention at startup and then every 24 hours (the audit log, and
 * webhook delivery-failure rows; shared/use-cases/maintenance/retention.ts), and the hourly sweep of expired status
 * updates. In aws mode the maintenance Lambda runs the retention instead (serverless.yml gives hosts retention 0).
 * Neither timer keeps the process alive.
 */
import type { Logger } from '#shared/ports/logger.port.js';
import type { RetentionJob } from '#shared/use-cases/maintenance/retention.js';

const DAY_MS = 86_400_000;

const HOUR_MS = 3_600_000;

/** Runs `sweep` now and then every hour (expired status updates and their files); answers a function that stops it. */
export function scheduleHourly(name: string, sweep: () => Promise<number>, logger: Logger): () => void {
  const run = () => {
    sweep().then(
      (removed) => removed > 0 && logger.info({ removed }, `${name} swept`),
      (error: unknown) => logger.error({ err: error }, `${name} sweep failed`),
    );
  };
  run();
  const timer = setInterval(run, HOUR_MS);
  timer.unref();
  return () => clearInterval(timer);
}

/** Runs every job now, then daily; jobs whose retention is off are skipped. Answers a function that cancels it. */
export function scheduleRetention(
  jobs: readonly Pick<RetentionJob, 'name' | 'retentionDays' | 'run'>[],
  logger: Logger,
): () => void {
  const active = jobs.filter((job) => job.retentionDays !== null);
  if (active.length === 0) return () => {};
  const run = () => {
    for (const job of active) {
      job.run().then(
        (removed) =>
          removed > 0 && logger.info({ removed, retentionDays: job.retentionDays }, `${job.name} pruned`),
        (error: unknown) => logger.error({ err: error }, `${job.name} pruning failed`),
      );
    }
  };
  run();
  const timer = setInterval(run, DAY_MS);
  timer.unref();
  return () => clearInterval(timer);
}
