/**
 * Retention (spec Limits): the audit log keeps AUDIT_RETENTION_DAYS (default 90) and webhook delivery failures
 * WEBHOOK_FAILURE_RETENTION_DAYS (default 90); 0 or less keeps a table whole. The one sweep both modes run: the
 * embedded host at startup and every 24 hours (host/maintenance.ts), the maintenance function daily in aws mode.
 * Stored message history is never purged here: its store is not among the tables. Status updates have a fixed 24 h
 * lifetime and their own sweep (sweep-expired-statuses.ts); the engine's message store is capped as it is written.
 */
import type { Env } from '#shared/config/env.js';
import type { AuditLogStore } from '#shared/ports/audit-log-store.port.js';
import type { Clock } from '#shared/ports/clock.port.js';
import type { DeliveryFailureStore } from '#shared/ports/delivery-failure-store.port.js';

const DAY_MS = 86_400_000;

/** Rows deleted per store call; the sweep yields to other work between calls. */
export const RETENTION_BATCH = 1_000;

/** The tables under a retention rule. */
export type RetentionTable = 'audit' | 'deliveryFailures';

/** Days each table keeps; null keeps all of it (its variable was 0 or less). */
export type RetentionPolicy = Record<RetentionTable, number | null>;

/** The stores the sweep prunes, each answering the same batched delete. */
export type RetentionStores = {
  audit: Pick<AuditLogStore, 'pruneOlderThan'>;
  deliveryFailures: Pick<DeliveryFailureStore, 'pruneOlderThan'>;
};

/** Rows each table lost in one sweep. */
export type RetentionResult = Record<RetentionTable, number>;

/** One table's retention as a scheduler runs it. */
export interface RetentionJob {
  table: RetentionTable;
  /** What is pruned, for the log line. */
  name: string;
  retentionDays: number | null;
  /** Prunes what is older than the retention now; answers how many rows went. */
  run(): Promise<number>;
}

const NAMES: Record<RetentionTable, string> = {
  audit: 'audit entries',
  deliveryFailures: 'webhook delivery failures',
};

/** The policy the env sets (the env already turned 0 or less into null). */
export function retentionPolicy(
  env: Pick<Env, 'AUDIT_RETENTION_DAYS' | 'WEBHOOK_FAILURE_RETENTION_DAYS'>,
): RetentionPolicy {
  return { audit: env.AUDIT_RETENTION_DAYS, deliveryFailures: env.WEBHOOK_FAILURE_RETENTION_DAYS };
}

const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve));

/**
 * Deletes the rows created before `retentionDays` ago, read from the clock when called, a batch at a time until a
 * batch comes back short; answers how many. Null deletes nothing.
 */
export async function pruneOlderThan(
  store: RetentionStores[RetentionTable],
  clock: Clock,
  retentionDays: number | null,
): Promise<number> {
  if (retentionDays === null) return 0;
  const cutoff = new Date(clock.now().getTime() - retentionDays * DAY_MS);
  let removed = 0;
  for (;;) {
    const deleted = await store.pruneOlderThan(cutoff, RETENTION_BATCH);
    removed += deleted;
    if (deleted < RETENTION_BATCH) return removed;
    await nextTurn();
  }
}

/** One job per table, for a scheduler that runs and logs each on its own. */
export function retentionJobs(
  stores: RetentionStores,
  clock: Clock,
  policy: RetentionPolicy,
): RetentionJob[] {
  return (Object.keys(NAMES) as RetentionTable[]).map((table) => ({
    table,
    name: NAMES[table],
    retentionDays: policy[table],
    run: () => pruneOlderThan(stores[table], clock, policy[table]),
  }));
}

/**
 * Runs every table's retention once, one table after the other; answers the rows each lost. A table that fails does
 * not stop the others; the first failure is thrown once all have run (a scheduled function then reports the error).
 */
export async function applyRetention(
  stores: RetentionStores,
  clock: Clock,
  policy: RetentionPolicy,
): Promise<RetentionResult> {
  const result: RetentionResult = { audit: 0, deliveryFailures: 0 };
  const failures: unknown[] = [];
  for (const job of retentionJobs(stores, clock, policy)) {
    try {
      result[job.table] = await job.run();
    } catch (error) {
      failures.push(error);
    }
  }
  if (failures.length > 0) throw failures[0];
  return result;
}
