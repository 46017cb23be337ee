import { defineRoute } from '#functions/http/route.js';
import { CreateWebhookBody, WebhookResponse } from '#shared/domain/webhook.js';
import { createWebhook } from '#shared/use-cases/webhooks/manage-webhooks.js';
import { WebhookSessionParams, webhookRules } from './params.js';

/** POST /api/sessions/{sessionId}/webhooks: register a webhook (201; 400 URL_NOT_ALLOWED or WEBHOOK_LIMIT). */
export const createWebhookRoute = defineRoute({
  method: 'POST',
  path: '/api/sessions/{sessionId}/webhooks',
  summary: 'Register a webhook',
  tag: 'Webhooks',
  auth: { role: 'operator' },
  params: WebhookSessionParams,
  body: CreateWebhookBody,
  response: WebhookResponse,
  success: 201,
  errors: [404],
  run: ({ deps, caller, params, body }) =>
    createWebhook(deps, webhookRules(deps.env), caller, params.sessionId, body),
});
