/**
 * What the Queue adapters (SQS, the embedded SQLite queue, the in-memory fake) check alike. The port's limits are
 * SQS's, and every adapter checks a call against them before doing any work, so a caller that works on one
 * adapter does not fail on another and gets the same ValidationError everywhere.
 */
import { ValidationError } from '#shared/errors/app-error.js';
import type { OutgoingMessage, ReceiveOptions } from '#shared/ports/queue.port.js';

/** SQS limits, named by the port. */
const MAX_DELAY_SECONDS = 900;
const MAX_VISIBILITY_SECONDS = 43_200;
const MAX_WAIT_SECONDS = 20;
export const MAX_BATCH = 10;
/** How long a FIFO deduplication id drops a second send of the same id (SQS: five minutes). */
export const DEDUP_WINDOW_MS = 5 * 60 * 1000;

/** Throws a ValidationError unless `value` is an integer within [min, max]. */
function checkInteger(value: number, min: number, max: number, what: string): number {
  if (!Number.isInteger(value) || value < min || value > max) {
    throw new ValidationError(`${what} must be an integer from ${min} to ${max}`, { details: { value } });
  }
  return value;
}

/** A visibility timeout: whole seconds, 0–43200. */
export function checkVisibility(seconds: number): number {
  return checkInteger(seconds, 0, MAX_VISIBILITY_SECONDS, 'visibilityTimeoutSeconds');
}

/** Checks a send: a non-empty body, a groupId on a FIFO queue, and a delay of 0–900 whole seconds. */
export function checkOutgoing(message: OutgoingMessage, queue: { name: string; fifo: boolean }): void {
  if (typeof message.body !== 'string' || message.body.length === 0) {
    throw new ValidationError('A message body must be a non-empty string');
  }
  if (queue.fifo && !message.groupId)
    throw new ValidationError(`FIFO queue ${queue.name} requires a groupId`);
  if (message.delaySeconds !== undefined)
    checkInteger(message.delaySeconds, 0, MAX_DELAY_SECONDS, 'delaySeconds');
}

/** A receive's options, checked, with the port's defaults: one message, no wait, the queue's visibility. */
export function checkReceiveOptions(options: ReceiveOptions): {
  maxMessages: number;
  visibilityTimeoutSeconds: number | undefined;
  waitTimeSeconds: number;
} {
  const maxMessages = checkInteger(options.maxMessages ?? 1, 1, MAX_BATCH, 'maxMessages');
  const visibility = options.visibilityTimeoutSeconds;
  return {
    maxMessages,
    visibilityTimeoutSeconds: visibility === undefined ? undefined : checkVisibility(visibility),
    waitTimeSeconds: checkInteger(options.waitTimeSeconds ?? 0, 0, MAX_WAIT_SECONDS, 'waitTimeSeconds'),
  };
}

/**
 * A receive's options for a queue this process runs, checked, in milliseconds: `visibilityMs` falls back to the
 * queue's own, and `deadline` (real time, whatever clock the queue was given) ends the long poll.
 */
export function checkLocalReceive(
  options: ReceiveOptions,
  queueVisibilityMs: number,
): { maxMessages: number; visibilityMs: number; deadline: number } {
  const { maxMessages, visibilityTimeoutSeconds, waitTimeSeconds } = checkReceiveOptions(options);
  return {
    maxMessages,
    visibilityMs:
      visibilityTimeoutSeconds === undefined ? queueVisibilityMs : visibilityTimeoutSeconds * 1000,
    deadline: Date.now() + waitTimeSeconds * 1000,
  };
}

/** The queue attributes the embedded and in-memory queues are built with (SQS sets them on the queue itself). */
export interface LocalQueueAttributes {
  visibilityTimeoutSeconds: number;
  maxReceiveCount?: number;
  deadLetterQueue?: unknown;
  pollIntervalMs?: number;
}

/**
 * Checks the attributes of a queue this process runs: the default visibility, the poll interval of long polls
 * (default 200 ms) and the redrive policy, whose receive count and dead-letter queue go together as on SQS.
 */
export function checkLocalQueueAttributes(attributes: LocalQueueAttributes): {
  visibilityMs: number;
  pollIntervalMs: number;
} {
  const visibilityMs = checkVisibility(attributes.visibilityTimeoutSeconds) * 1000;
  const pollIntervalMs = attributes.pollIntervalMs ?? 200;
  if (!(pollIntervalMs > 0)) throw new ValidationError('pollIntervalMs must be positive');
  if ((attributes.maxReceiveCount === undefined) !== (attributes.deadLetterQueue === undefined)) {
    throw new ValidationError('maxReceiveCount and deadLetterQueue go together (an SQS redrive policy)');
  }
  if (attributes.maxReceiveCount !== undefined)
    checkInteger(attributes.maxReceiveCount, 1, 1000, 'maxReceiveCount');
  return { visibilityMs, pollIntervalMs };
}
