import type { BatchVersion, MessageBatch } from '#shared/domain/message-batch.js';
import { ValidationError } from '#shared/errors/app-error.js';

/**
 * The 400 every adapter raises for a batch id the session used already (openwa answers a duplicate with 400, and the
 * spec's 409 list does not name it).
 */
export function batchIdTaken(batchId: string): ValidationError {
  return new ValidationError(`Batch '${batchId}' already exists in this session`, {
    code: 'BATCH_ID_TAKEN',
    details: { batchId },
  });
}

/**
 * Message batches of the data store, named by (session, batchId): an id of another session is "not found"
 * everywhere. A batch's items are fixed at create; everything else moves on through `update`, a compare-and-set on
 * (status, currentIndex), so a cancel and the host recording an item never overwrite each other: the loser reads
 * the batch again and applies its change to what the winner wrote.
 */
export interface BatchStore {
  /**
   * Stores a new batch, every field as given (so it also restores a batch as `listBySession` read it, the data
   * import's write). A batchId the session used already raises BATCH_ID_TAKEN (400), whatever races; an unknown
   * session NotFoundError where the store knows sessions (SQLite, DynamoDB).
   */
  create(batch: MessageBatch): Promise<void>;
  find(sessionId: string, batchId: string): Promise<MessageBatch | null>;
  /** The session's batches still pending or processing, oldest first (createdAt, then batchId). */
  listUnfinished(sessionId: string): Promise<MessageBatch[]>;
  /**
   * Every batch of a session, finished or not, a page at a time in batchId order: those after `afterBatchId` (null:
   * from the first), at most `limit` (the data export).
   */
  listBySession(sessionId: string, afterBatchId: string | null, limit: number): Promise<MessageBatch[]>;
  /** How many batches of all sessions are pending or processing (the concurrency cap reads it; may lag a little). */
  countUnfinished(): Promise<number>;
  /**
   * Writes the batch's changing fields (status, progress, results, currentIndex, updatedAt, startedAt, completedAt)
   * if the stored batch is still at `expected`; false, changing nothing, when it moved on or does not exist.
   */
  update(batch: MessageBatch, expected: BatchVersion): Promise<boolean>;
  /** Deletes every batch of a session (session delete); answers how many. */
  deleteBySession(sessionId: string): Promise<number>;
}
