import type { Page } from '#shared/domain/common.js';
import type { DeliveryFailure } from '#shared/domain/webhook.js';
import { DeliveryFailure as DeliveryFailureSchema } from '#shared/domain/webhook.js';

/** Every field of a delivery-failure record, in schema order. */
export const DELIVERY_FAILURE_FIELDS = DeliveryFailureSchema.keyof().options;

export interface DeliveryFailureFilter {
  sessionId?: string;
}

/**
 * Abandoned webhook deliveries (retries exhausted, or never attempted). Records outlive their webhook and session:
 * they are an operator's record, removed by retention (pruneOlderThan) or by a later success of the same event.
 */
export interface DeliveryFailureStore {
  /**
   * Stores a record. Ids are random UUIDs; inserting the same record again (a retried write) raises
   * ConflictError and keeps the first.
   */
  insert(failure: DeliveryFailure): Promise<void>;
  /** Records matching the filter, most recent first (createdAt, then id). */
  list(filter: DeliveryFailureFilter, page: Page): Promise<DeliveryFailure[]>;
  /** Deletes every record of an idempotency key (a later delivery of that event succeeded); answers how many. */
  deleteByIdempotencyKey(idempotencyKey: string): Promise<number>;
  /**
   * Retention: deletes at most `limit` records created before `cutoff`, oldest first; answers how many. Callers repeat
   * until it answers less than `limit`, so one call never holds the store (SQLite: the process) for long.
   */
  pruneOlderThan(cutoff: Date, limit: number): Promise<number>;
}
