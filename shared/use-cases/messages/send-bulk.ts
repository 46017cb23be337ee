/**
 * Queues a message batch (POST …/messages/send-bulk, 202; openwa-facts §1.2, §2 SendBulkMessageDto): checks the
 * session can send and that every item renders, stores the batch `pending` and queues a `batch.run` command; the
 * host that runs the session sends the items one by one (host/batches/). Nothing is sent before the answer.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import type { Caller } from '#shared/domain/caller.js';
import {
  type BulkAccepted,
  type BulkItem,
  bulkItemDraft,
  endedBatch,
  newBatch,
  type SendBulkBody,
  versionOf,
} from '#shared/domain/message-batch.js';
import { RateLimitedError, UnavailableError, ValidationError } from '#shared/errors/app-error.js';
import type { CoreDeps } from '#shared/use-cases/core-deps.js';
import { loadSession } from '#shared/use-cases/sessions/load-session.js';
import { checkSessionCanSend } from './send-message.js';

/** When a refused batch may try again: a batch takes at least a few seconds per item. */
const BATCH_LIMIT_RETRY_AFTER_S = 30;

export type BulkDeps = Pick<CoreDeps, 'data' | 'commands' | 'clock' | 'logger'>;

/**
 * 404 unknown session, 400 SESSION_NOT_READY (action_required too), 400 for an item that does not render (its
 * index in the message), 400 BATCH_ID_TAKEN, 429 BATCH_LIMIT when `maxConcurrent` batches are unfinished already
 * (across sessions; a cap, checked before the batch is stored). Exact duplicate items are sent once.
 */
export async function sendBulk(
  deps: BulkDeps,
  caller: Caller,
  sessionId: string,
  body: SendBulkBody,
  maxConcurrent: number,
): Promise<BulkAccepted> {
  const session = await loadSession(deps.data.sessions, caller, sessionId);
  checkSessionCanSend(session);
  body.messages.forEach(requireRenders);
  if ((await deps.data.batches.countUnfinished()) >= maxConcurrent) {
    throw new RateLimitedError(BATCH_LIMIT_RETRY_AFTER_S, {
      code: 'BATCH_LIMIT',
      message: `At most ${maxConcurrent} batches may be under way at once; retry when one has finished`,
    });
  }
  const now = deps.clock.now();
  const batch = newBatch({
    id: randomUUID(),
    batchId: body.batchId ?? `batch_${randomBytes(8).toString('hex')}`,
    sessionId,
    messages: distinct(body.messages),
    options: body.options,
    now: now.toISOString(),
  });
  await deps.data.batches.create(batch);
  try {
    await deps.commands.send(
      { type: 'batch.run', sessionId, batchId: batch.batchId, requestedAt: batch.createdAt },
      { dedupId: `batch:${batch.id}` },
    );
  } catch (error) {
    // Not queued: the batch ends before anything went out, so it never starts behind the client's back.
    const ended = endedBatch(batch, 'failed', deps.clock.now().toISOString());
    await deps.data.batches.update(ended, versionOf(batch)).catch(() => false);
    deps.logger.error({ err: error, sessionId }, 'batch command could not be queued');
    throw new UnavailableError('DEPENDENCY_UNAVAILABLE', 'The command queue is unavailable; retry', {
      cause: error,
    });
  }
  const total = batch.messages.length;
  return {
    batchId: batch.batchId,
    status: batch.status,
    totalMessages: total,
    estimatedCompletionTime: new Date(
      now.getTime() + total * batch.options.delayBetweenMessages,
    ).toISOString(),
    statusUrl: `/api/sessions/${sessionId}/messages/batch/${batch.batchId}`,
  };
}

/** Refuses the request when an item does not render (its text, caption or url), naming the item. */
function requireRenders(item: BulkItem, index: number): void {
  try {
    bulkItemDraft(item);
  } catch (error) {
    if (!(error instanceof ValidationError)) throw error;
    const details = typeof error.details === 'object' && error.details !== null ? error.details : {};
    throw new ValidationError(`messages[${index}]: ${error.message}`, {
      code: error.code,
      details: { index, ...details },
    });
  }
}

/** The items without exact repeats (openwa collapses them), in order of first appearance. */
function distinct(items: readonly BulkItem[]): BulkItem[] {
  const seen = new Set<string>();
  return items.filter((item) => {
    const key = JSON.stringify(item);
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}
