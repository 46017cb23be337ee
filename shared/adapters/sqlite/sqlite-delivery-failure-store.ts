/**
 * DeliveryFailureStore over the data SQLite file: one row per abandoned delivery, read newest first (all, or one
 * session's, each from its own index), deleted by idempotency key or by age.
 */
import type { Page } from '#shared/domain/common.js';
import type { DeliveryFailure } from '#shared/domain/webhook.js';
import { ConflictError } from '#shared/errors/app-error.js';
import type {
  DeliveryFailureFilter,
  DeliveryFailureStore,
} from '#shared/ports/delivery-failure-store.port.js';
import type { SqliteDb } from './sqlite-database.js';
import { LazyStatement, runSql, StatementCache } from './sqlite-store-support.js';

interface FailureRow {
  id: string;
  webhook_id: string;
  session_id: string;
  event: string;
  url: string;
  idempotency_key: string;
  delivery_id: string | null;
  attempts: number;
  last_status_code: number | null;
  last_error: string;
  created_at: string;
}

const STORE = 'Delivery failure store';

function toFailure(row: FailureRow): DeliveryFailure {
  return {
    id: row.id,
    webhookId: row.webhook_id,
    sessionId: row.session_id,
    event: row.event,
    url: row.url,
    idempotencyKey: row.idempotency_key,
    deliveryId: row.delivery_id,
    attempts: row.attempts,
    lastStatusCode: row.last_status_code,
    lastError: row.last_error,
    createdAt: row.created_at,
  };
}

function toRow(failure: DeliveryFailure): FailureRow {
  return {
    id: failure.id,
    webhook_id: failure.webhookId,
    session_id: failure.sessionId,
    event: failure.event,
    url: failure.url,
    idempotency_key: failure.idempotencyKey,
    delivery_id: failure.deliveryId,
    attempts: failure.attempts,
    last_status_code: failure.lastStatusCode,
    last_error: failure.lastError,
    created_at: failure.createdAt,
  };
}

/** Delivery failures in SQLite. */
export class SqliteDeliveryFailureStore implements DeliveryFailureStore {
  private readonly insertRow: LazyStatement<FailureRow>;
  private readonly deleteByKey: LazyStatement<[string]>;
  private readonly deleteOldest: LazyStatement<[string, number]>;
  private readonly rows: StatementCache<FailureRow>;

  constructor(db: SqliteDb) {
    this.insertRow = new LazyStatement(
      db,
      `INSERT INTO webhook_delivery_failures (id, webhook_id, session_id, event, url, idempotency_key, delivery_id,
         attempts, last_status_code, last_error, created_at)
       VALUES (@id, @webhook_id, @session_id, @event, @url, @idempotency_key, @delivery_id,
         @attempts, @last_status_code, @last_error, @created_at)`,
    );
    this.deleteByKey = new LazyStatement(
      db,
      'DELETE FROM webhook_delivery_failures WHERE idempotency_key = ?',
    );
    // A batch at a time on the created_at index: one DELETE of a large backlog blocks the process for seconds.
    this.deleteOldest = new LazyStatement(
      db,
      `DELETE FROM webhook_delivery_failures WHERE rowid IN
         (SELECT rowid FROM webhook_delivery_failures WHERE created_at < ? ORDER BY created_at, id LIMIT ?)`,
    );
    this.rows = new StatementCache(db);
  }

  async insert(failure: DeliveryFailure): Promise<void> {
    runSql(
      STORE,
      () => this.insertRow.run(toRow(failure)),
      () => new ConflictError('CONFLICT', 'A delivery failure with this id already exists'),
    );
  }

  async list(filter: DeliveryFailureFilter, page: Page): Promise<DeliveryFailure[]> {
    const params: Record<string, unknown> = { limit: page.limit, offset: page.offset };
    let where = '';
    if (filter.sessionId !== undefined) {
      where = 'WHERE session_id = @session_id';
      params.session_id = filter.sessionId;
    }
    const sql = `SELECT * FROM webhook_delivery_failures ${where}
      ORDER BY created_at DESC, id DESC LIMIT @limit OFFSET @offset`;
    return runSql(STORE, () => this.rows.all(sql, params).map(toFailure));
  }

  async deleteByIdempotencyKey(idempotencyKey: string): Promise<number> {
    return runSql(STORE, () => this.deleteByKey.run(idempotencyKey).changes);
  }

  async pruneOlderThan(cutoff: Date, limit: number): Promise<number> {
    return runSql(STORE, () => this.deleteOldest.run(cutoff.toISOString(), limit).changes);
  }
}
