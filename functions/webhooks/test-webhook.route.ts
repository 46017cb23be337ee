import { defineRoute } from '#functions/http/route.js';
import { WebhookTestResult } from '#shared/domain/webhook.js';
import { testWebhook } from '#shared/use-cases/webhooks/test-webhook.js';
import { WebhookParams } from './params.js';

/** POST /api/sessions/{sessionId}/webhooks/{id}/test: one signed test delivery; 200 with its outcome. */
export const testWebhookRoute = defineRoute({
  method: 'POST',
  path: '/api/sessions/{sessionId}/webhooks/{id}/test',
  summary: 'Send a test delivery to a webhook',
  tag: 'Webhooks',
  auth: { role: 'operator' },
  params: WebhookParams,
  response: WebhookTestResult,
  success: 200,
  errors: [404],
  run: ({ deps, caller, params }) =>
    testWebhook(
      deps,
      { timeoutMs: deps.env.WEBHOOK_TIMEOUT, version: deps.version },
      caller,
      params.sessionId,
      params.id,
    ),
});
