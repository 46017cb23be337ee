/** In-memory DeliveryFailureStore: the unit-test fake, behaving like the SQLite adapter (copies, ordering, errors). */
import type { Page } from '#shared/domain/common.js';
import type { DeliveryFailure } from '#shared/domain/webhook.js';
import { ConflictError } from '#shared/errors/app-error.js';
import type {
  DeliveryFailureFilter,
  DeliveryFailureStore,
} from '#shared/ports/delivery-failure-store.port.js';
import { newestFirst, oldestBefore } from './memory-support.js';

/** Field-by-field copy, so stray fields are dropped (every field is a primitive). */
function copyFailure(failure: DeliveryFailure): DeliveryFailure {
  return {
    id: failure.id,
    webhookId: failure.webhookId,
    sessionId: failure.sessionId,
    event: failure.event,
    url: failure.url,
    idempotencyKey: failure.idempotencyKey,
    deliveryId: failure.deliveryId,
    attempts: failure.attempts,
    lastStatusCode: failure.lastStatusCode,
    lastError: failure.lastError,
    createdAt: failure.createdAt,
  };
}

/** Delivery failures in a Map keyed by id; nothing awaits, so every method is atomic. */
export class MemoryDeliveryFailureStore implements DeliveryFailureStore {
  private readonly byId = new Map<string, DeliveryFailure>();

  async insert(failure: DeliveryFailure): Promise<void> {
    if (this.byId.has(failure.id)) {
      throw new ConflictError('CONFLICT', 'A delivery failure with this id already exists');
    }
    this.byId.set(failure.id, copyFailure(failure));
  }

  async list(filter: DeliveryFailureFilter, page: Page): Promise<DeliveryFailure[]> {
    return [...this.byId.values()]
      .filter((failure) => filter.sessionId === undefined || failure.sessionId === filter.sessionId)
      .sort(newestFirst)
      .slice(page.offset, page.offset + page.limit)
      .map(copyFailure);
  }

  async deleteByIdempotencyKey(idempotencyKey: string): Promise<number> {
    return this.deleteWhere((failure) => failure.idempotencyKey === idempotencyKey);
  }

  async pruneOlderThan(cutoff: Date, limit: number): Promise<number> {
    const doomed = oldestBefore(this.byId.values(), cutoff, limit);
    for (const failure of doomed) this.byId.delete(failure.id);
    return doomed.length;
  }

  private deleteWhere(doomed: (failure: DeliveryFailure) => boolean): number {
    let removed = 0;
    for (const [id, failure] of this.byId) {
      if (!doomed(failure)) continue;
      this.byId.delete(id);
      removed += 1;
    }
    return removed;
  }
}
