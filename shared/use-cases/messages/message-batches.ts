/**
 * Reading and cancelling a message batch (GET …/messages/batch/{batchId}, POST …/batch/{batchId}/cancel;
 * openwa-facts §1.2, §3 "Bulk batch"). A cancel ends the batch at once: the items not sent yet are counted
 * cancelled, and the host sending it stops before its next item (an item already on its way is recorded as what
 * became of it).
 */
import type { Caller } from '#shared/domain/caller.js';
import {
  type BatchCancelView,
  type BatchStatusView,
  batchStatusView,
  cancelledBatch,
  isBatchFinished,
  type MessageBatch,
  versionOf,
} from '#shared/domain/message-batch.js';
import { ConflictError, NotFoundError, ValidationError } from '#shared/errors/app-error.js';
import type { CoreDeps } from '#shared/use-cases/core-deps.js';
import { loadSession } from '#shared/use-cases/sessions/load-session.js';

/** Rounds of read-then-write when the host records an item between a cancel's read and its write. */
const MAX_CANCEL_ATTEMPTS = 5;

type BatchDeps = Pick<CoreDeps, 'data' | 'clock'>;

async function loadBatch(
  deps: BatchDeps,
  caller: Caller,
  sessionId: string,
  batchId: string,
): Promise<MessageBatch> {
  await loadSession(deps.data.sessions, caller, sessionId);
  const batch = await deps.data.batches.find(sessionId, batchId);
  if (!batch) throw new NotFoundError(`Batch '${batchId}' not found`);
  return batch;
}

/** Where the batch stands: status, progress and one result per item done; 404 for an unknown session or batch. */
export async function getBatch(
  deps: BatchDeps,
  caller: Caller,
  sessionId: string,
  batchId: string,
): Promise<BatchStatusView> {
  return batchStatusView(await loadBatch(deps, caller, sessionId, batchId));
}

/** Cancels a pending or processing batch; 400 BATCH_FINISHED when it completed, failed or was cancelled already. */
export async function cancelBatch(
  deps: BatchDeps,
  caller: Caller,
  sessionId: string,
  batchId: string,
): Promise<BatchCancelView> {
  for (let attempt = 1; attempt <= MAX_CANCEL_ATTEMPTS; attempt++) {
    const batch = await loadBatch(deps, caller, sessionId, batchId);
    if (isBatchFinished(batch)) {
      throw new ValidationError(`Batch '${batchId}' is already ${batch.status}`, {
        code: 'BATCH_FINISHED',
        details: { status: batch.status },
      });
    }
    const cancelled = cancelledBatch(batch, deps.clock.now().toISOString());
    if (await deps.data.batches.update(cancelled, versionOf(batch))) {
      return { batchId, status: cancelled.status, progress: cancelled.progress };
    }
  }
  throw new ConflictError('CONFLICT', 'The batch changed while it was being cancelled; retry', {
    retryable: true,
  });
}
