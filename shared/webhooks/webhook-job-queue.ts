/**
 * The producer side of the webhook queue: the outbox relay hands it each stored event (`enqueueEvent`), and the
 * queued delivery re-queues a failed attempt with its backoff as the message's delay (`enqueueRetry`). It works on
 * any Queue adapter: a standard queue, so no group and no deduplication id (a duplicate is a repeated delivery under
 * the same idempotency key, which receivers deduplicate on).
 */
import type { GatewayEvent } from '#shared/domain/events.js';
import type { Queue } from '#shared/ports/queue.port.js';
import { backoffMs } from './delivery-attempts.js';
import { eventKey } from './idempotency-key.js';
import { type AttemptJob, serializeWebhookJob, type UndeliverableJob } from './webhook-job.js';

/**
 * The largest message body the queue takes: SQS's limit (1 MiB, body and attributes together; this queue sets no
 * attributes), which the emulator enforces too. The embedded queue has none, but holds to it so both modes agree.
 */
export const MAX_JOB_BYTES = 1_048_576;
/** SQS's (and the port's) longest per-message delay. */
export const MAX_DELAY_SECONDS = 900;

/**
 * The delay of the job that retries after failed attempt `failedAttempt`: `retryDelayMs × 2^(n−1)` in whole
 * seconds (the queue's unit, rounded up so a retry never comes early), capped at the queue's 900 s.
 */
export function retryDelaySeconds(retryDelayMs: number, failedAttempt: number): number {
  return Math.min(MAX_DELAY_SECONDS, Math.ceil(backoffMs(retryDelayMs, failedAttempt) / 1000));
}

export class WebhookJobQueue {
  constructor(private readonly queue: Queue) {}

  /**
   * The relay's delivery consumer: resolves once the queue has accepted the event's job; rejects only when the
   * queue is unavailable (the relay keeps the event and tries again). An event the queue cannot carry (over its
   * message limit, or not serializable) is queued as an `undeliverable` job instead, which leaves failure rows.
   */
  readonly enqueueEvent = async (event: GatewayEvent): Promise<void> => {
    let body: string;
    try {
      body = serializeWebhookJob({ kind: 'event', event });
    } catch (error) {
      return this.undeliverable(event, `Webhook payload could not be serialized: ${String(error)}`);
    }
    const size = Buffer.byteLength(body);
    if (size > MAX_JOB_BYTES) {
      return this.undeliverable(
        event,
        `Webhook event is ${size} bytes, exceeding the queue's ${MAX_JOB_BYTES}-byte message limit`,
      );
    }
    await this.queue.send({ body });
  };

  /**
   * Queues the next attempt of a delivery, visible after `delaySeconds`. Answers false, sending nothing, when the
   * job is over the queue's message limit (the caller then records the delivery as failed).
   */
  async enqueueRetry(job: AttemptJob, delaySeconds: number): Promise<boolean> {
    const body = serializeWebhookJob(job);
    if (Buffer.byteLength(body) > MAX_JOB_BYTES) return false;
    await this.queue.send({ body, delaySeconds });
    return true;
  }

  private async undeliverable(event: GatewayEvent, reason: string): Promise<void> {
    const job: UndeliverableJob = {
      kind: 'undeliverable',
      event: event.event,
      sessionId: event.sessionId,
      occurredAt: event.occurredAt,
      eventKey: keyOf(event),
      reason,
    };
    await this.queue.send({ body: serializeWebhookJob(job) });
  }
}

/** The event's key; one that cannot be hashed (the data that failed to serialize) falls back to its instant. */
function keyOf(event: GatewayEvent): string {
  try {
    return eventKey(event);
  } catch {
    return `undeliverable_${event.sessionId}_${event.occurredAt}`;
  }
}
