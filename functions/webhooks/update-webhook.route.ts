import { defineRoute } from '#functions/http/route.js';
import { UpdateWebhookBody, WebhookResponse } from '#shared/domain/webhook.js';
import { updateWebhook } from '#shared/use-cases/webhooks/manage-webhooks.js';
import { WebhookParams, webhookRules } from './params.js';

/** PUT /api/sessions/{sessionId}/webhooks/{id}: partial update (a changed URL is vetted again). */
export const updateWebhookRoute = defineRoute({
  method: 'PUT',
  path: '/api/sessions/{sessionId}/webhooks/{id}',
  summary: 'Update a webhook',
  tag: 'Webhooks',
  auth: { role: 'operator' },
  params: WebhookParams,
  body: UpdateWebhookBody,
  response: WebhookResponse,
  success: 200,
  errors: [404],
  run: ({ deps, caller, params, body }) =>
    updateWebhook(deps, webhookRules(deps.env), caller, params.sessionId, params.id, body),
});
