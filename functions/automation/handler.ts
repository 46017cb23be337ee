/** The automation Lambda: /api/sessions/{sessionId}/automation-rules… routes. */
import { createResourceHandler } from '#functions/http/http-handler.js';
import { automationRoutes } from './routes.js';

export const handler = createResourceHandler(automationRoutes);
