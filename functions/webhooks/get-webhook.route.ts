import { defineRoute } from '#functions/http/route.js';
import { WebhookResponse } from '#shared/domain/webhook.js';
import { getWebhook } from '#shared/use-cases/webhooks/manage-webhooks.js';
import { WebhookParams } from './params.js';

/** GET /api/sessions/{sessionId}/webhooks/{id}: one webhook (404 when not in this session). */
export const getWebhookRoute = defineRoute({
  method: 'GET',
  path: '/api/sessions/{sessionId}/webhooks/{id}',
  summary: 'Get a webhook',
  tag: 'Webhooks',
  auth: { role: 'operator' },
  params: WebhookParams,
  response: WebhookResponse,
  success: 200,
  errors: [404],
  run: ({ deps, caller, params }) => getWebhook(deps, caller, params.sessionId, params.id),
});
