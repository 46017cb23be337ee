/**
 * Retention of webhook delivery-failure rows (spec Limits: 90 days, WEBHOOK_FAILURE_RETENTION_DAYS; 0 or less
 * keeps them all): run by the embedded host at startup and daily, and by the maintenance Lambda in aws mode.
 */
import type { Clock } from '#shared/ports/clock.port.js';
import type { DeliveryFailureStore } from '#shared/ports/delivery-failure-store.port.js';

const DAY_MS = 86_400_000;

/** Deletes failure rows older than `retentionDays`; answers how many (0 when retention is off). */
export async function pruneDeliveryFailures(
  failures: DeliveryFailureStore,
  clock: Clock,
  retentionDays: number | null,
): Promise<number> {
  if (retentionDays === null) return 0;
  return failures.pruneOlderThan(new Date(clock.now().getTime() - retentionDays * DAY_MS));
}
