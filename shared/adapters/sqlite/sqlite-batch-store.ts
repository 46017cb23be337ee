/**
 * BatchStore over the data SQLite file: one row per batch (batch-rows.ts). batch_id is unique per session by a
 * UNIQUE index, so two racing creates cannot both take it; `update` is one conditional UPDATE, a compare-and-set.
 */
import { type BatchRow, batchChanges, fromBatchRow, toBatchRow } from '#shared/adapters/batch-rows.js';
import type { BatchVersion, MessageBatch } from '#shared/domain/message-batch.js';
import { NotFoundError } from '#shared/errors/app-error.js';
import { type BatchStore, batchIdTaken } from '#shared/ports/batch-store.port.js';
import type { SqliteDb } from './sqlite-database.js';
import { isForeignKeyViolation, LazyStatement, runSql } from './sqlite-store-support.js';

const STORE = 'Batch store';
const UNFINISHED = "status IN ('pending', 'processing')";

/** Batches in SQLite; a session's batches go with it (ON DELETE CASCADE). */
export class SqliteBatchStore implements BatchStore {
  private readonly insert: LazyStatement<BatchRow>;
  private readonly select: LazyStatement<[string, string], BatchRow>;
  private readonly selectUnfinished: LazyStatement<[string], BatchRow>;
  private readonly selectPage: LazyStatement<[string, string, number], BatchRow>;
  private readonly countAll: LazyStatement<[], { n: number }>;
  private readonly compareAndSet: LazyStatement<Record<string, unknown>>;
  private readonly deleteSession: LazyStatement<[string]>;

  constructor(db: SqliteDb) {
    this.insert = new LazyStatement(
      db,
      `INSERT INTO message_batches (id, batch_id, session_id, status, messages, options, progress, results,
         current_index, created_at, updated_at, started_at, completed_at)
       VALUES (@id, @batch_id, @session_id, @status, @messages, @options, @progress, @results, @current_index,
         @created_at, @updated_at, @started_at, @completed_at)`,
    );
    this.select = new LazyStatement(
      db,
      'SELECT * FROM message_batches WHERE session_id = ? AND batch_id = ?',
    );
    this.selectUnfinished = new LazyStatement(
      db,
      `SELECT * FROM message_batches WHERE session_id = ? AND ${UNFINISHED} ORDER BY created_at, batch_id`,
    );
    this.selectPage = new LazyStatement(
      db,
      'SELECT * FROM message_batches WHERE session_id = ? AND batch_id > ? ORDER BY batch_id LIMIT ?',
    );
    this.countAll = new LazyStatement(db, `SELECT COUNT(*) AS n FROM message_batches WHERE ${UNFINISHED}`);
    this.compareAndSet = new LazyStatement(
      db,
      `UPDATE message_batches SET status = @status, progress = @progress, results = @results,
         current_index = @current_index, updated_at = @updated_at, started_at = @started_at,
         completed_at = @completed_at
       WHERE session_id = @session_id AND batch_id = @batch_id
         AND status = @expected_status AND current_index = @expected_index`,
    );
    this.deleteSession = new LazyStatement(db, 'DELETE FROM message_batches WHERE session_id = ?');
  }

  async create(batch: MessageBatch): Promise<void> {
    runSql(
      STORE,
      () => {
        try {
          this.insert.run(toBatchRow(batch));
        } catch (error) {
          if (isForeignKeyViolation(error)) {
            throw new NotFoundError(`Session ${batch.sessionId} not found`, { cause: error });
          }
          throw error;
        }
      },
      (target) => (target === 'message_batches.session_id' ? batchIdTaken(batch.batchId) : undefined),
    );
  }

  async find(sessionId: string, batchId: string): Promise<MessageBatch | null> {
    return runSql(STORE, () => {
      const row = this.select.get(sessionId, batchId);
      return row === undefined ? null : fromBatchRow(row);
    });
  }

  async listUnfinished(sessionId: string): Promise<MessageBatch[]> {
    return runSql(STORE, () => this.selectUnfinished.all(sessionId).map(fromBatchRow));
  }

  async listBySession(
    sessionId: string,
    afterBatchId: string | null,
    limit: number,
  ): Promise<MessageBatch[]> {
    return runSql(STORE, () => this.selectPage.all(sessionId, afterBatchId ?? '', limit).map(fromBatchRow));
  }

  async countUnfinished(): Promise<number> {
    return runSql(STORE, () => this.countAll.get()?.n ?? 0);
  }

  async update(batch: MessageBatch, expected: BatchVersion): Promise<boolean> {
    const params = {
      ...batchChanges(batch),
      session_id: batch.sessionId,
      batch_id: batch.batchId,
      expected_status: expected.status,
      expected_index: expected.currentIndex,
    };
    return runSql(STORE, () => this.compareAndSet.run(params).changes > 0);
  }

  async deleteBySession(sessionId: string): Promise<number> {
    return runSql(STORE, () => this.deleteSession.run(sessionId).changes);
  }
}
