/**
 * The queued webhook delivery on the host (QUEUE_ENABLED=true, embedded mode): consumes the embedded webhook queue
 * like the command consumer consumes its own — long-polls, processes each job (one attempt per webhook; retries go
 * back on the queue with their delay), deletes the message when it is done with, and leaves it for redelivery
 * when a store or the queue was unavailable (the dead-letter queue takes it after WEBHOOK_MAX_RECEIVES). Jobs run
 * side by side up to a bound, so one slow receiver does not hold back the others. In aws mode the delivery Lambda
 * consumes the SQS queue instead and the host only produces.
 */
import { GuardedHttpClient } from '#shared/adapters/http/guarded-http-client.js';
import type { AuditRecorder } from '#shared/audit/audit-recorder.js';
import type { Env } from '#shared/config/env.js';
import type { GatewayEvent } from '#shared/domain/events.js';
import type { Clock } from '#shared/ports/clock.port.js';
import type { Logger } from '#shared/ports/logger.port.js';
import type { MediaStorage } from '#shared/ports/media-storage.port.js';
import type { Queue, ReceivedMessage } from '#shared/ports/queue.port.js';
import type { DataStore } from '#shared/ports/stores.port.js';
import { createQueuedWebhookDelivery, type QueuedWebhookDelivery } from '#shared/webhooks/queued-delivery.js';
import { WebhookJobQueue } from '#shared/webhooks/webhook-job-queue.js';
import { handleWebhookMessage } from '#shared/webhooks/webhook-message.js';
import { packageVersion } from '../package-version.js';

export interface WebhookQueueConsumerOptions {
  /** Jobs processed at once (each makes one attempt per webhook of its event). */
  maxInFlight: number;
  /** Hidden time of a received job (WEBHOOK_VISIBILITY_TIMEOUT_S): one attempt per webhook must fit in it. */
  visibilityTimeoutSeconds: number;
  /** Long poll (0–20 s). */
  waitTimeSeconds: number;
}

export class WebhookQueueConsumer {
  private readonly abort = new AbortController();
  private readonly inFlight = new Set<Promise<void>>();
  private loop: Promise<void> | null = null;

  constructor(
    private readonly queue: Queue,
    private readonly delivery: Pick<QueuedWebhookDelivery, 'process'>,
    private readonly logger: Logger,
    private readonly options: WebhookQueueConsumerOptions,
  ) {}

  start(): void {
    this.loop ??= this.run();
  }

  /** Stops polling and waits for the jobs in hand (their retries are queued; call before the queue closes). */
  async stop(): Promise<void> {
    this.abort.abort();
    await this.loop;
    await Promise.allSettled([...this.inFlight]);
  }

  private async run(): Promise<void> {
    const signal = this.abort.signal;
    while (!signal.aborted) {
      const room = this.options.maxInFlight - this.inFlight.size;
      if (room <= 0) {
        await Promise.race(this.inFlight);
        continue;
      }
      try {
        const received = await this.queue.receive({
          maxMessages: Math.min(10, room),
          waitTimeSeconds: this.options.waitTimeSeconds,
          visibilityTimeoutSeconds: this.options.visibilityTimeoutSeconds,
          signal,
        });
        for (const message of received) this.track(this.handle(message));
      } catch (error) {
        if (signal.aborted) break;
        this.logger.error({ err: error }, 'webhook queue receive failed; retrying');
        await new Promise((resolve) => setTimeout(resolve, 1000));
      }
    }
  }

  private track(work: Promise<void>): void {
    this.inFlight.add(work);
    void work.finally(() => this.inFlight.delete(work)).catch(() => undefined);
  }

  private async handle(message: ReceivedMessage): Promise<void> {
    const verdict = await handleWebhookMessage(message.body, this.delivery, this.logger, {
      messageId: message.id,
      receiveCount: message.receiveCount,
    });
    if (verdict === 'retry') return;
    try {
      await this.queue.delete(message.receiptHandle);
    } catch (error) {
      // The job comes back after its visibility timeout: its deliveries repeat under the same idempotency keys.
      this.logger.error({ err: error, messageId: message.id }, 'webhook job not deleted; it will repeat');
    }
  }
}

export interface QueuedWebhookDeliveryDeps {
  env: Env;
  data: Pick<DataStore, 'webhooks' | 'deliveryFailures' | 'messages'>;
  /** The media archive: message events carry their files inline from it (WEBHOOK_MEDIA_INLINE_MAX_BYTES). */
  media: Pick<MediaStorage, 'get'>;
  audit: AuditRecorder;
  /** `backends.webhookQueue`: the embedded queue, or SQS in aws mode. */
  queue: Queue;
  clock: Clock;
  logger: Logger;
}

/** The queued delivery as the host runs it. */
export interface RunningQueuedWebhookDelivery {
  /** The outbox relay's delivery consumer: resolves once the event's job is on the queue. */
  enqueueEvent(event: GatewayEvent): Promise<void>;
  /** Stops consuming and waits for the jobs in hand; call before the stores and the queue close. */
  close(): Promise<void>;
}

/**
 * Starts the queued delivery: the producer always, the consumer in embedded mode only (in aws mode the delivery
 * Lambda consumes the SQS queue, and a host consuming it too would only compete with it).
 */
export function startQueuedWebhookDelivery(deps: QueuedWebhookDeliveryDeps): RunningQueuedWebhookDelivery {
  const { env, queue, logger } = deps;
  const jobs = new WebhookJobQueue(queue);
  if (env.DEPLOYMENT_MODE === 'aws') return { enqueueEvent: jobs.enqueueEvent, close: async () => {} };
  const http = new GuardedHttpClient({ allowedHosts: env.SSRF_ALLOWED_HOSTS });
  const delivery = createQueuedWebhookDelivery({ ...deps, http, version: packageVersion() });
  const consumer = new WebhookQueueConsumer(queue, delivery, logger, {
    maxInFlight: env.WEBHOOK_DISPATCH_CONCURRENCY,
    visibilityTimeoutSeconds: env.WEBHOOK_VISIBILITY_TIMEOUT_S,
    waitTimeSeconds: 20,
  });
  consumer.start();
  return {
    enqueueEvent: jobs.enqueueEvent,
    async close() {
      await consumer.stop();
      http.close();
    },
  };
}
