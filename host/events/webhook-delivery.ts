/**
 * The host's webhook delivery: every event the host publishes goes to the dispatcher, which delivers it to the
 * session's webhooks through the guarded HTTP client (SSRF vetting and a pinned connection on every attempt),
 * inline and bounded (WEBHOOK_DISPATCH_CONCURRENCY, WEBHOOK_DISPATCH_MAX_QUEUED). The outbox relay hands it each
 * stored event and removes the entry once every delivery has its outcome; publishing never waits for a delivery.
 * At shutdown the deliveries under way and waiting get WEBHOOK_SHUTDOWN_DRAIN_MS to finish; what still waits for a
 * slot or a retry then is recorded as a failure (attempts-0 rows for those never attempted), attempts under way
 * finish, all before the stores close. Events the relay had not handed over yet stay in the outbox for the next start.
 */
import { GuardedHttpClient } from '#shared/adapters/http/guarded-http-client.js';
import type { AuditRecorder } from '#shared/audit/audit-recorder.js';
import type { Env } from '#shared/config/env.js';
import type { Clock } from '#shared/ports/clock.port.js';
import type { Logger } from '#shared/ports/logger.port.js';
import type { MediaStorage } from '#shared/ports/media-storage.port.js';
import type { DataStore } from '#shared/ports/stores.port.js';
import { storeDeliveryMedia } from '#shared/webhooks/delivery-media.js';
import { storeDeliveryFailures, storeDeliveryTargets } from '#shared/webhooks/store-delivery-adapters.js';
import { WebhookDispatcher } from '#shared/webhooks/webhook-dispatcher.js';
import { packageVersion } from '../package-version.js';
import type { DurableConsumer } from './outbox-relay.js';

export interface WebhookDeliveryDeps {
  env: Env;
  data: DataStore;
  /** The media archive: message events carry their files inline from it (WEBHOOK_MEDIA_INLINE_MAX_BYTES). */
  media: MediaStorage;
  audit: AuditRecorder;
  clock: Clock;
  logger: Logger;
}

export interface RunningWebhookDelivery {
  dispatcher: WebhookDispatcher;
  /** The relay's consumer: resolves once every delivery of the event has its outcome (or failure row). */
  consumer: DurableConsumer;
  close(): Promise<void>;
}

export function startWebhookDelivery(deps: WebhookDeliveryDeps): RunningWebhookDelivery {
  const { env, data, audit, clock, logger } = deps;
  const http = new GuardedHttpClient({ allowedHosts: env.SSRF_ALLOWED_HOSTS });
  const dispatcher = new WebhookDispatcher(
    {
      targets: storeDeliveryTargets(data.webhooks, audit),
      media: storeDeliveryMedia(data.messages, deps.media),
      http,
      failures: storeDeliveryFailures(data.deliveryFailures, audit, clock),
      clock,
      logger,
    },
    {
      version: packageVersion(),
      retryDelayMs: env.WEBHOOK_RETRY_DELAY,
      timeoutMs: env.WEBHOOK_TIMEOUT,
      maxPayloadBytes: env.WEBHOOK_MAX_PAYLOAD_BYTES,
      mediaInlineMaxBytes: env.WEBHOOK_MEDIA_INLINE_MAX_BYTES,
      concurrency: env.WEBHOOK_DISPATCH_CONCURRENCY,
      maxWaiting: env.WEBHOOK_DISPATCH_MAX_QUEUED,
    },
  );
  return {
    dispatcher,
    consumer: async (event) => {
      await dispatcher.dispatch(event);
    },
    async close() {
      await settledWithin(dispatcher.drain(), env.WEBHOOK_SHUTDOWN_DRAIN_MS);
      dispatcher.close();
      await dispatcher.drain();
      http.close();
    },
  };
}

/** Resolves when `work` settles or after `ms`, whichever comes first. */
async function settledWithin(work: Promise<unknown>, ms: number): Promise<void> {
  if (ms <= 0) return;
  let timer: NodeJS.Timeout | undefined;
  const elapsed = new Promise<void>((resolve) => {
    timer = setTimeout(resolve, ms);
  });
  try {
    await Promise.race([work.catch(() => undefined), elapsed]);
  } finally {
    clearTimeout(timer);
  }
}
