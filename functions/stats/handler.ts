/** The statistics Lambda. */
import { createResourceHandler } from '#functions/http/http-handler.js';
import { statsRoutes } from './routes.js';

export const handler = createResourceHandler(statsRoutes);
