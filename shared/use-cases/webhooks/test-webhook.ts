/**
 * The test delivery (`POST …/webhooks/{id}/test`, openwa-facts §4.3): one attempt of a `test` event, shaped,
 * signed and sent like a real delivery, whose outcome is reported instead of retried or recorded.
 */
import { randomUUID } from 'node:crypto';
import type { Caller } from '#shared/domain/caller.js';
import type { WebhookTestResult } from '#shared/domain/webhook.js';
import type { HttpClient } from '#shared/ports/http-client.port.js';
import type { CoreDeps } from '#shared/use-cases/core-deps.js';
import { loadSession } from '#shared/use-cases/sessions/load-session.js';
import { deliveryHeaders } from '#shared/webhooks/delivery-request.js';
import { loadWebhook } from './load-webhook.js';

export interface TestDeliveryOptions {
  /** WEBHOOK_TIMEOUT: the whole attempt, as for a real delivery. */
  timeoutMs: number;
  /** The gateway's version, for the User-Agent. */
  version: string;
}

/**
 * Sends a test payload `{event: "test", timestamp, sessionId, idempotencyKey, deliveryId, data}` to the webhook
 * (active or not) through the guarded client, with the webhook's custom headers and signatures. Never throws for the
 * receiver's sake: a response is `{success: 2xx, statusCode}`, no response `{success: false, error}`. 404 only when
 * the session or the webhook does not exist.
 */
export async function testWebhook(
  deps: Pick<CoreDeps, 'data' | 'clock'> & { http: HttpClient },
  options: TestDeliveryOptions,
  caller: Caller,
  sessionId: string,
  id: string,
): Promise<WebhookTestResult> {
  await loadSession(deps.data.sessions, caller, sessionId);
  const webhook = await loadWebhook(deps.data.webhooks, sessionId, id);

  const now = deps.clock.now();
  const deliveryId = `dlv_${randomUUID()}`;
  const ids = { idempotencyKey: `test_${deliveryId}_${webhook.id}`, deliveryId };
  const body = JSON.stringify({
    event: 'test',
    timestamp: now.toISOString(),
    sessionId,
    idempotencyKey: ids.idempotencyKey,
    deliveryId,
    data: { webhookId: webhook.id, message: 'Test delivery from Waygate' },
  });
  const headers = deliveryHeaders({
    event: 'test',
    ids,
    attempt: 1,
    body,
    secret: webhook.secret,
    custom: webhook.headers,
    version: options.version,
    nowSeconds: Math.floor(now.getTime() / 1000),
  });
  const result = await deps.http.post(webhook.url, { headers, body, timeoutMs: options.timeoutMs });
  return result.ok
    ? { success: result.status >= 200 && result.status < 300, statusCode: result.status }
    : { success: false, error: result.error };
}
