/** The sessions Lambda: every /api/sessions route of this resource group. */
import { createResourceHandler } from '#functions/http/http-handler.js';
import { sessionRoutes } from './routes.js';

export const handler = createResourceHandler(sessionRoutes);
