/** The messages Lambda: /api/sessions/{sessionId}/messages routes. */
import { createResourceHandler } from '#functions/http/http-handler.js';
import { messageRoutes } from './routes.js';

export const handler = createResourceHandler(messageRoutes);
