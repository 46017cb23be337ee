/** The templates Lambda: /api/sessions/{sessionId}/templates… routes. */
import { createResourceHandler } from '#functions/http/http-handler.js';
import { templateRoutes } from './routes.js';

export const handler = createResourceHandler(templateRoutes);
