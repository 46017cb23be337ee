import { defineRoute } from '#functions/http/route.js';
import { deleteWebhook } from '#shared/use-cases/webhooks/manage-webhooks.js';
import { WebhookParams } from './params.js';

/** DELETE /api/sessions/{sessionId}/webhooks/{id}: remove a webhook (204). */
export const deleteWebhookRoute = defineRoute({
  method: 'DELETE',
  path: '/api/sessions/{sessionId}/webhooks/{id}',
  summary: 'Delete a webhook',
  tag: 'Webhooks',
  auth: { role: 'operator' },
  params: WebhookParams,
  success: 204,
  errors: [404],
  run: ({ deps, caller, params }) => deleteWebhook(deps, caller, params.sessionId, params.id),
});
