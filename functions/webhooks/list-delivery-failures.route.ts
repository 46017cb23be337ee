import { z } from 'zod';
import { defineRoute } from '#functions/http/route.js';
import { PageQuery } from '#shared/domain/common.js';
import { DeliveryFailure } from '#shared/domain/webhook.js';
import { listDeliveryFailures } from '#shared/use-cases/webhooks/list-webhooks.js';

const DeliveryFailureQuery = PageQuery.extend({
  sessionId: z.uuid({ message: 'must be a session id (uuid)' }).optional(),
});

/** GET /api/webhooks/delivery-failures: abandoned deliveries, most recent first (admin, unscoped key). */
export const listDeliveryFailuresRoute = defineRoute({
  method: 'GET',
  path: '/api/webhooks/delivery-failures',
  summary: 'List abandoned webhook deliveries',
  tag: 'Webhooks',
  auth: { role: 'admin', unscoped: true },
  query: DeliveryFailureQuery,
  response: z.array(DeliveryFailure),
  success: 200,
  run: ({ deps, query }) => listDeliveryFailures(deps, query),
});
