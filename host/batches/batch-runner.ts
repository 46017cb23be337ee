/**
 * Sends one message batch, item by item from its `currentIndex`, on the host that runs its session (DESIGN §2:
 * batch items are durable work). Each item goes through the ordinary send path (the send use case: a stored row, a
 * `message.send` command, the host's outcome), under the idempotency key `batch:<batch id>:<index>`: an item whose
 * send began before a restart (or on another host that lost the session) answers that first message again instead
 * of sending a second one, so no item goes out twice. After each item the outcome, progress and index are written
 * with a compare-and-set, so a cancel in between is never lost; then the batch waits its delay. A cancel is seen
 * before the next item.
 */
import { SYSTEM_CALLER } from '#shared/domain/caller.js';
import type { Message } from '#shared/domain/message.js';
import {
  type BatchItemResult,
  bulkItemDraft,
  delayAfterItem,
  endedBatch,
  isBatchFinished,
  type MessageBatch,
  recordedBatch,
  startedBatch,
  versionOf,
} from '#shared/domain/message-batch.js';
import { AppError, SessionStateError } from '#shared/errors/app-error.js';
import { type SendDeps, sendOrReplay } from '#shared/use-cases/messages/send-message.js';

/** How long to wait before trying an item again after a retryable failure (store or queue unavailable). */
const RETRY_AFTER_MS = 2000;
/** Rounds of compare-and-set when a write meets a concurrent change of the same item (a cancel). */
const MAX_RECORD_ATTEMPTS = 5;

export interface BatchRunnerDeps {
  /** What the send use case works on: this host's stores, command queue and outcomes. */
  send: SendDeps;
  /** True while the session's engine runs on this host: a batch is sent only where its session runs. */
  isLocal(sessionId: string): boolean;
  /** Waits `ms`, or less when `signal` aborts first. */
  sleep(ms: number, signal: AbortSignal): Promise<void>;
  /** In [0, 1): draws the randomized delays. */
  random(): number;
  /** How often a batch waiting for its session looks again, and how long it waits for an outcome at a time. */
  pollMs: number;
}

/** `finished`: nothing is left to do here. `paused`: stopped before the end; a later run goes on from the index. */
export type BatchRunEnd = 'finished' | 'paused';

/** Runs the batch until it is finished, cancelled, or this host stops (signal) or no longer runs its session. */
export async function runBatch(
  deps: BatchRunnerDeps,
  sessionId: string,
  batchId: string,
  signal: AbortSignal,
): Promise<BatchRunEnd> {
  const store = deps.send.data.batches;
  const now = () => deps.send.clock.now().toISOString();
  for (;;) {
    if (signal.aborted) return 'paused';
    let batch = await store.find(sessionId, batchId);
    if (!batch || isBatchFinished(batch)) return 'finished';
    if (batch.status === 'pending') {
      const started = startedBatch(batch, now());
      if (!(await store.update(started, versionOf(batch)))) continue;
      batch = started;
    }
    if (batch.currentIndex >= batch.messages.length) {
      // Only a batch with no items left to send could be here; it is complete.
      await store.update(endedBatch(batch, 'completed', now()), versionOf(batch));
      continue;
    }
    const readiness = await waitUntilSendable(deps, sessionId, signal);
    if (readiness !== 'ready') return readiness === 'gone' ? 'finished' : 'paused';
    const result = await sendItem(deps, batch, signal);
    if (!result) return 'paused';
    const recorded = await record(deps, batch, result);
    if (recorded && !isBatchFinished(recorded)) {
      await deps.sleep(delayAfterItem(recorded.options, deps.random()), signal);
    }
  }
}

/**
 * Waits until the session is ready (connecting, reconnecting and action_required all wait); `away` when the host
 * stops or the session no longer runs here, `gone` when it was deleted.
 */
async function waitUntilSendable(
  deps: BatchRunnerDeps,
  sessionId: string,
  signal: AbortSignal,
): Promise<'ready' | 'away' | 'gone'> {
  for (;;) {
    if (signal.aborted || !deps.isLocal(sessionId)) return 'away';
    const session = await deps.send.data.sessions.findById(sessionId);
    if (!session) return 'gone';
    if (session.status === 'ready') return 'ready';
    await deps.sleep(deps.pollMs, signal);
  }
}

/** Sends item `currentIndex` and waits for its outcome; null when interrupted first (it resumes under its key). */
async function sendItem(
  deps: BatchRunnerDeps,
  batch: MessageBatch,
  signal: AbortSignal,
): Promise<BatchItemResult | null> {
  const index = batch.currentIndex;
  const item = batch.messages[index];
  if (!item) return null;
  for (;;) {
    if (signal.aborted) return null;
    try {
      const { message } = await sendOrReplay(
        deps.send,
        SYSTEM_CALLER,
        batch.sessionId,
        {
          chatId: item.chatId,
          content: bulkItemDraft(item),
          metadata: { batch: { batchId: batch.batchId, index } },
          idempotencyKey: `batch:${batch.id}:${index}`,
        },
        0,
      );
      const settled = await untilSettled(deps, message, signal);
      return settled && resultOf(deps, settled);
    } catch (error) {
      // The session left `ready` between the check and the send: the item waits for it, like the batch does.
      if (error instanceof SessionStateError) {
        await deps.sleep(deps.pollMs, signal);
        if ((await waitUntilSendable(deps, batch.sessionId, signal)) !== 'ready') return null;
        continue;
      }
      if (error instanceof AppError && !error.retryable) {
        return { chatId: item.chatId, status: 'failed', error: { code: error.code, message: error.message } };
      }
      deps.send.logger.warn(
        { err: error, sessionId: batch.sessionId, batchId: batch.batchId, index },
        'batch item could not be sent now; trying again',
      );
      await deps.sleep(retryDelayMs(error), signal);
      // A cancel while the item waited is honoured before it is tried again.
      const current = await deps.send.data.batches.find(batch.sessionId, batch.batchId).catch(() => batch);
      if (!current || isBatchFinished(current)) return null;
    }
  }
}

/** How long to wait before trying an item again: what the error asks (a pacing refusal's), at least RETRY_AFTER_MS. */
function retryDelayMs(error: unknown): number {
  const asked = error instanceof AppError ? (error.retryAfterSeconds ?? 0) * 1000 : 0;
  return Math.max(RETRY_AFTER_MS, asked);
}

/** The message once it is no longer pending; null when the host stops first or the row is gone. */
async function untilSettled(
  deps: BatchRunnerDeps,
  message: Message,
  signal: AbortSignal,
): Promise<Message | null> {
  const { messages } = deps.send.data;
  const read = () => messages.findById(message.sessionId, message.id);
  let current: Message | null = message;
  while (current?.status === 'pending') {
    if (signal.aborted) return null;
    await deps.send.outcomes.settled(message.sessionId, message.id, deps.pollMs, async () => {
      return (await read())?.status !== 'pending';
    });
    current = await read();
  }
  return current;
}

function resultOf(deps: BatchRunnerDeps, message: Message): BatchItemResult {
  const messageId = message.waMessageId ?? undefined;
  if (message.status === 'failed') {
    return {
      chatId: message.chatId,
      status: 'failed',
      ...(messageId ? { messageId } : {}),
      error: { code: 'SEND_FAILED', message: 'The message could not be sent' },
    };
  }
  const sentAt = message.timestamp === null ? deps.send.clock.now() : new Date(message.timestamp * 1000);
  return {
    chatId: message.chatId,
    status: 'sent',
    ...(messageId ? { messageId } : {}),
    sentAt: sentAt.toISOString(),
  };
}

/**
 * Writes the item's outcome. When the stored batch moved on meanwhile at the same index (a cancel), the outcome is
 * applied to what is stored now; answers the batch as written, or the stored one when another host recorded the
 * item first (or null when the batch is gone).
 */
async function record(
  deps: BatchRunnerDeps,
  read: MessageBatch,
  result: BatchItemResult,
): Promise<MessageBatch | null> {
  const store = deps.send.data.batches;
  let current = read;
  for (let attempt = 1; attempt <= MAX_RECORD_ATTEMPTS; attempt++) {
    const next = recordedBatch(current, result, deps.send.clock.now().toISOString());
    if (await store.update(next, versionOf(current))) return next;
    const fresh = await store.find(current.sessionId, current.batchId);
    if (!fresh || fresh.currentIndex !== current.currentIndex) return fresh;
    current = fresh;
  }
  return current;
}
