/** The messages Lambda: /api/sessions/{sessionId}/messages routes. */
import { createResourceHandler } from '#functions/http/http-handler.js';
import { listMessagesRoute } from './list-messages.route.js';
import { sendTextRoute } from './send-text.route.js';

export const messageRoutes = [listMessagesRoute, sendTextRoute];

export const handler = createResourceHandler(messageRoutes);
