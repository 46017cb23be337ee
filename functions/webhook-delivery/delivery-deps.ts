/**
 * The delivery Lambda's dependencies (aws mode), built from the environment once per cold start: the data store
 * (webhooks, failure rows, messages), the media archive (files inlined in message events), the audit recorder on the main store, the SQS webhook queue (where retries go) and the
 * guarded HTTP client. Nothing else of the API's dependencies: no host gateway, no command queue use.
 */
import { pino } from 'pino';
import { openAwsAdapters } from '#shared/adapters/aws/open-aws-adapters.js';
import { GuardedHttpClient } from '#shared/adapters/http/guarded-http-client.js';
import { openMediaStorage } from '#shared/adapters/open-media-storage.js';
import { AuditRecorder } from '#shared/audit/audit-recorder.js';
import { type Env, loadEnv } from '#shared/config/env.js';
import { createMetrics } from '#shared/observability/metrics.js';
import { systemClock } from '#shared/ports/clock.port.js';
import type { Logger } from '#shared/ports/logger.port.js';
import { createQueuedWebhookDelivery, type QueuedWebhookDelivery } from '#shared/webhooks/queued-delivery.js';

/** What the handler uses. */
export interface WebhookDeliveryDeps {
  delivery: Pick<QueuedWebhookDelivery, 'process'>;
  logger: Logger;
  /** Writes what the invocation left buffered (sampled webhook_triggered entries) before Lambda may freeze. */
  flush(): Promise<void>;
}

/** The delivery function's dependencies from the Lambda's environment, kept for the instance's lifetime. */
export function createAwsWebhookDeliveryDeps(): WebhookDeliveryDeps {
  return openAwsWebhookDeliveryDeps(loadEnv()).deps;
}

/**
 * The same from `env`, with what closes them: for a process that outlives the function (the api-aws tests consume
 * the webhook queue in-process, a deployment per test file).
 */
export function openAwsWebhookDeliveryDeps(env: Env): { deps: WebhookDeliveryDeps; close(): Promise<void> } {
  const logger: Logger = pino({ level: env.LOG_LEVEL, base: { service: 'waygate', fn: 'webhook-delivery' } });
  const adapters = openAwsAdapters(env);
  const queue = adapters.webhookQueue;
  if (!queue) throw new Error('WEBHOOK_QUEUE_URL is required by the webhook delivery function');
  const clock = systemClock;
  const media = openMediaStorage(env);
  const metrics = createMetrics({ processSeries: true });
  const audit = new AuditRecorder(adapters.main.audit, clock, logger, metrics);
  const delivery = createQueuedWebhookDelivery({
    env,
    data: adapters.data,
    media,
    audit,
    queue,
    // Its pooled sockets are unref'd while idle: warm invocations reuse connections to the receivers.
    http: new GuardedHttpClient({ allowedHosts: env.SSRF_ALLOWED_HOSTS }),
    clock,
    logger,
    version: env.SERVICE_VERSION ?? '0.0.0',
  });
  return {
    deps: { delivery, logger, flush: () => audit.flush() },
    async close() {
      metrics.close();
      await audit.close();
      await media.close();
      await adapters.close();
    },
  };
}
