import { z } from 'zod';
import { defineRoute } from '#functions/http/route.js';
import { PageQuery } from '#shared/domain/common.js';
import { WebhookResponse } from '#shared/domain/webhook.js';
import { listWebhooks } from '#shared/use-cases/webhooks/list-webhooks.js';

/** GET /api/webhooks: every webhook the key may see (its allowed sessions), newest first. */
export const listWebhooksRoute = defineRoute({
  method: 'GET',
  path: '/api/webhooks',
  summary: 'List webhooks of all sessions',
  tag: 'Webhooks',
  auth: { role: 'operator' },
  query: PageQuery,
  response: z.array(WebhookResponse),
  success: 200,
  run: ({ deps, caller, query }) => listWebhooks(deps, caller, query),
});
