/** The webhooks Lambda: /api/sessions/{sessionId}/webhooks… and /api/webhooks… routes. */
import { createResourceHandler } from '#functions/http/http-handler.js';
import { webhookRoutes } from './routes.js';

export const handler = createResourceHandler(webhookRoutes);
