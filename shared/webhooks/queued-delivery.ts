/**
 * The queued webhook delivery (embedded with QUEUE_ENABLED=true, the delivery Lambda in aws mode): handles one job
 * of the webhook queue, making at most one attempt per webhook, so a job takes one WEBHOOK_TIMEOUT at most and
 * nothing sleeps. An `event` job fans out like the inline dispatcher (active, subscribed, filters pass) with the
 * same ids, body, headers and signatures (delivery-attempts.ts). A failed attempt with attempts left is re-queued as
 * an `attempt` job whose delay is the backoff (`WEBHOOK_RETRY_DELAY × 2^(n−1)`, whole seconds, at most 900); the
 * retry re-reads the webhook, so a change applies to it and a deleted, disabled or unsubscribed webhook stops the
 * delivery silently. After the webhook's last attempt (its `retryCount` as it stands then) a failure row and a
 * `webhook_failed` audit record it.
 *
 * `process` rejects only when a store or the queue is unavailable: the job then stays on the queue, comes back
 * after its visibility timeout, and lands in the dead-letter queue after maxReceives. A redelivered `event` job
 * attempts every webhook of the event again (a new deliveryId, the same idempotency key, which is what receivers
 * deduplicate on). Receiver failures are outcomes, never errors.
 */
import type { AuditRecorder } from '#shared/audit/audit-recorder.js';
import type { Env } from '#shared/config/env.js';
import type { GatewayEvent } from '#shared/domain/events.js';
import { subscribesTo } from '#shared/domain/webhook.js';
import { matchesFilters } from '#shared/domain/webhook-filters.js';
import type { Clock } from '#shared/ports/clock.port.js';
import type { HttpClient } from '#shared/ports/http-client.port.js';
import type { Logger } from '#shared/ports/logger.port.js';
import type { MediaStorage } from '#shared/ports/media-storage.port.js';
import type { Queue } from '#shared/ports/queue.port.js';
import type { DataStore } from '#shared/ports/stores.port.js';
import {
  type DeliveryAttemptDeps,
  type DeliveryAttemptOptions,
  DeliveryAttempts,
  type DeliveryTarget,
  failureOf,
  isDelivered,
  newDeliveryIds,
} from './delivery-attempts.js';
import { storeDeliveryMedia } from './delivery-media.js';
import type { DeliveryIds } from './delivery-request.js';
import { storeDeliveryFailures, storeDeliveryTargets } from './store-delivery-adapters.js';
import type { AttemptJob, UndeliverableJob, WebhookJob } from './webhook-job.js';
import { retryDelaySeconds, WebhookJobQueue } from './webhook-job-queue.js';

/** What became of one delivery in this job: `retrying` means its next attempt is on the queue. */
export type QueuedDeliveryOutcome = 'delivered' | 'retrying' | 'failed' | 'dropped' | 'stopped';

export interface QueuedDeliveryDeps extends DeliveryAttemptDeps {
  /** Where retries go: the webhook queue the job came from. */
  jobs: Pick<WebhookJobQueue, 'enqueueRetry'>;
}

export interface QueuedDeliveryOptions extends DeliveryAttemptOptions {
  /** Base of the backoff (WEBHOOK_RETRY_DELAY), ms. */
  retryDelayMs: number;
}

/** One delivery in progress: its ids and the body's timestamp, the same on every attempt. */
interface Delivery {
  ids: DeliveryIds;
  timestamp: string;
}

export class QueuedWebhookDelivery {
  private readonly attempts: DeliveryAttempts;

  constructor(
    private readonly deps: QueuedDeliveryDeps,
    private readonly options: QueuedDeliveryOptions,
  ) {
    this.attempts = new DeliveryAttempts(deps, options);
  }

  /** Handles one job; resolves with each delivery's outcome, rejects when a store or the queue is unavailable. */
  async process(job: WebhookJob): Promise<QueuedDeliveryOutcome[]> {
    switch (job.kind) {
      case 'event':
        return this.fanOut(job.event);
      case 'attempt':
        return [await this.retry(job)];
      case 'undeliverable':
        return this.refuse(job);
    }
  }

  private async fanOut(event: GatewayEvent): Promise<QueuedDeliveryOutcome[]> {
    const targets = await this.deps.targets.active(event.sessionId);
    const wanted = targets.filter(
      (target) => subscribesTo(target, event.event) && matchesFilters(target.filters, event),
    );
    const timestamp = this.deps.clock.now().toISOString();
    return settleAll(
      wanted.map((target) =>
        this.attempt(event, target, { ids: newDeliveryIds(event, target.id), timestamp }, 1),
      ),
    );
  }

  private async retry(job: AttemptJob): Promise<QueuedDeliveryOutcome> {
    const target = await this.attempts.current(
      { sessionId: job.event.sessionId, id: job.webhookId },
      job.event.event,
    );
    if (!target) return 'stopped';
    const ids = { deliveryId: job.deliveryId, idempotencyKey: job.idempotencyKey };
    return this.attempt(job.event, target, { ids, timestamp: job.timestamp }, job.attempt);
  }

  /** Attempt `attempt` of a delivery, then its consequence: done, re-queued, or recorded as failed. */
  private async attempt(
    event: GatewayEvent,
    target: DeliveryTarget,
    delivery: Delivery,
    attempt: number,
  ): Promise<QueuedDeliveryOutcome> {
    const { ids, timestamp } = delivery;
    const prepared = await this.attempts.prepare(event, ids, timestamp);
    if ('refused' in prepared) {
      await this.attempts.failed(event, target, ids, attempt - 1, { status: null, error: prepared.refused });
      return 'dropped';
    }
    const outcome = await this.attempts.post(event.event, target, ids, prepared.body, attempt);
    if (isDelivered(outcome)) {
      await this.attempts.succeeded(target, ids);
      return 'delivered';
    }
    const failure = failureOf(outcome);
    if (attempt < Math.max(1, target.retryCount)) {
      const next: AttemptJob = {
        kind: 'attempt',
        event,
        webhookId: target.id,
        attempt: attempt + 1,
        ...ids,
        timestamp,
      };
      const delay = retryDelaySeconds(this.options.retryDelayMs, attempt);
      if (await this.deps.jobs.enqueueRetry(next, delay)) return 'retrying';
      failure.error = `${failure.error}; not retried: the retry is over the queue's message limit`;
    }
    await this.attempts.failed(event, target, ids, attempt, failure);
    return 'failed';
  }

  /**
   * An event that could not be queued: a failure row with 0 attempts for every webhook subscribed to it. Its data
   * did not travel, so filters cannot be evaluated: a filtered webhook gets the row too (a row too many is visible
   * to the operator; an event lost without one is not).
   */
  private async refuse(job: UndeliverableJob): Promise<QueuedDeliveryOutcome[]> {
    const targets = await this.deps.targets.active(job.sessionId);
    const wanted = targets.filter((target) => subscribesTo(target, job.event));
    return settleAll(
      wanted.map(async (target): Promise<QueuedDeliveryOutcome> => {
        const ids = { idempotencyKey: `${job.eventKey}_${target.id}`, deliveryId: '' };
        await this.attempts.failed(job, target, ids, 0, { status: null, error: job.reason });
        return 'dropped';
      }),
    );
  }
}

/** Every delivery of a job runs to its end; then the first infrastructure error, if any, fails the job. */
async function settleAll<T>(work: readonly Promise<T>[]): Promise<T[]> {
  const settled = await Promise.allSettled(work);
  const rejected = settled.find((result) => result.status === 'rejected');
  if (rejected) throw rejected.reason;
  return settled.map((result) => (result as PromiseFulfilledResult<T>).value);
}

/** What the queued delivery is built from, in the host (embedded) and in the delivery Lambda alike. */
export interface QueuedDeliverySetup {
  env: Pick<
    Env,
    'WEBHOOK_RETRY_DELAY' | 'WEBHOOK_TIMEOUT' | 'WEBHOOK_MAX_PAYLOAD_BYTES' | 'WEBHOOK_MEDIA_INLINE_MAX_BYTES'
  >;
  data: Pick<DataStore, 'webhooks' | 'deliveryFailures' | 'messages'>;
  /** The media archive: message events carry their files inline from it (WEBHOOK_MEDIA_INLINE_MAX_BYTES). */
  media: Pick<MediaStorage, 'get'>;
  audit: AuditRecorder;
  /** The webhook queue: where this delivery's retries go. */
  queue: Queue;
  /** The guarded HTTP client (SSRF vetting and a pinned connection on every attempt). */
  http: HttpClient;
  clock: Clock;
  logger: Logger;
  version: string;
}

/** The queued delivery over the data store's webhooks and failure rows, configured from the env. */
export function createQueuedWebhookDelivery(setup: QueuedDeliverySetup): QueuedWebhookDelivery {
  const { env, data, audit, clock } = setup;
  return new QueuedWebhookDelivery(
    {
      targets: storeDeliveryTargets(data.webhooks, audit),
      failures: storeDeliveryFailures(data.deliveryFailures, audit, clock),
      jobs: new WebhookJobQueue(setup.queue),
      media: storeDeliveryMedia(data.messages, setup.media),
      http: setup.http,
      clock,
      logger: setup.logger,
    },
    {
      version: setup.version,
      retryDelayMs: env.WEBHOOK_RETRY_DELAY,
      timeoutMs: env.WEBHOOK_TIMEOUT,
      maxPayloadBytes: env.WEBHOOK_MAX_PAYLOAD_BYTES,
      mediaInlineMaxBytes: env.WEBHOOK_MEDIA_INLINE_MAX_BYTES,
    },
  );
}
