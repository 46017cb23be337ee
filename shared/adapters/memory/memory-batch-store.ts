/** In-memory BatchStore: the unit-test fake, behaving like the SQLite adapter (copies, order, compare-and-set). */
import { type BatchVersion, isBatchFinished, type MessageBatch } from '#shared/domain/message-batch.js';
import { type BatchStore, batchIdTaken } from '#shared/ports/batch-store.port.js';
import { jsonCopy } from './memory-support.js';

const keyOf = (sessionId: string, batchId: string) => JSON.stringify([sessionId, batchId]);

/** Oldest first: createdAt, then batchId, as text (SQLite's order). */
function oldestFirst(a: MessageBatch, b: MessageBatch): number {
  if (a.createdAt !== b.createdAt) return a.createdAt < b.createdAt ? -1 : 1;
  return a.batchId < b.batchId ? -1 : a.batchId > b.batchId ? 1 : 0;
}

/** Batches in a Map by (session, batchId); every method is atomic because nothing in it awaits. */
export class MemoryBatchStore implements BatchStore {
  private readonly batches = new Map<string, MessageBatch>();

  async create(batch: MessageBatch): Promise<void> {
    const key = keyOf(batch.sessionId, batch.batchId);
    if (this.batches.has(key)) throw batchIdTaken(batch.batchId);
    this.batches.set(key, jsonCopy(batch));
  }

  async find(sessionId: string, batchId: string): Promise<MessageBatch | null> {
    const batch = this.batches.get(keyOf(sessionId, batchId));
    return batch ? jsonCopy(batch) : null;
  }

  async listUnfinished(sessionId: string): Promise<MessageBatch[]> {
    return [...this.batches.values()]
      .filter((batch) => batch.sessionId === sessionId && !isBatchFinished(batch))
      .sort(oldestFirst)
      .map(jsonCopy);
  }

  async listBySession(
    sessionId: string,
    afterBatchId: string | null,
    limit: number,
  ): Promise<MessageBatch[]> {
    return [...this.batches.values()]
      .filter(
        (batch) => batch.sessionId === sessionId && (afterBatchId === null || batch.batchId > afterBatchId),
      )
      .sort((a, b) => (a.batchId < b.batchId ? -1 : a.batchId > b.batchId ? 1 : 0))
      .slice(0, limit)
      .map(jsonCopy);
  }

  async countUnfinished(): Promise<number> {
    return [...this.batches.values()].filter((batch) => !isBatchFinished(batch)).length;
  }

  async update(batch: MessageBatch, expected: BatchVersion): Promise<boolean> {
    const key = keyOf(batch.sessionId, batch.batchId);
    const stored = this.batches.get(key);
    if (stored?.status !== expected.status || stored.currentIndex !== expected.currentIndex) return false;
    const { status, progress, results, currentIndex, updatedAt, startedAt, completedAt } = jsonCopy(batch);
    this.batches.set(key, {
      ...stored,
      status,
      progress,
      results,
      currentIndex,
      updatedAt,
      startedAt,
      completedAt,
    });
    return true;
  }

  async deleteBySession(sessionId: string): Promise<number> {
    let deleted = 0;
    for (const [key, batch] of this.batches) {
      if (batch.sessionId !== sessionId) continue;
      this.batches.delete(key);
      deleted += 1;
    }
    return deleted;
  }
}
