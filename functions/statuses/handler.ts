/** The status updates Lambda. */
import { createResourceHandler } from '#functions/http/http-handler.js';
import { statusRoutes } from './routes.js';

export const handler = createResourceHandler(statusRoutes);
