import { z } from 'zod';
import { defineRoute } from '#functions/http/route.js';
import { WebhookResponse } from '#shared/domain/webhook.js';
import { listSessionWebhooks } from '#shared/use-cases/webhooks/manage-webhooks.js';
import { WebhookSessionParams } from './params.js';

/** GET /api/sessions/{sessionId}/webhooks: the session's webhooks, newest first. */
export const listSessionWebhooksRoute = defineRoute({
  method: 'GET',
  path: '/api/sessions/{sessionId}/webhooks',
  summary: 'List the webhooks of a session',
  tag: 'Webhooks',
  auth: { role: 'operator' },
  params: WebhookSessionParams,
  response: z.array(WebhookResponse),
  success: 200,
  errors: [404],
  run: ({ deps, caller, params }) => listSessionWebhooks(deps, caller, params.sessionId),
});
