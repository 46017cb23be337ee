/** The groups Lambda. */
import { createResourceHandler } from '#functions/http/http-handler.js';
import { groupRoutes } from './routes.js';

export const handler = createResourceHandler(groupRoutes);
