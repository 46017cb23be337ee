/** Periodic housekeeping of the host process: audit retention at startup and then every 24 hours. */
import type { AuditLogStore } from '#shared/ports/audit-log-store.port.js';
import type { Clock } from '#shared/ports/clock.port.js';
import type { Logger } from '#shared/ports/logger.port.js';
import { pruneAudit } from '#shared/use-cases/audit/audit-log.js';

const DAY_MS = 86_400_000;

/** Prunes now, then daily; answers a function that cancels the schedule. */
export function scheduleAuditRetention(
  audit: AuditLogStore,
  clock: Clock,
  retentionDays: number | null,
  logger: Logger,
): () => void {
  if (retentionDays === null) return () => {};
  const run = () =>
    pruneAudit(audit, clock, retentionDays).then(
      (removed) => removed > 0 && logger.info({ removed, retentionDays }, 'audit entries pruned'),
      (error: unknown) => logger.error({ err: error }, 'audit pruning failed'),
    );
  void run();
  const timer = setInterval(run, DAY_MS);
  timer.unref();
  return () => clearInterval(timer);
}
