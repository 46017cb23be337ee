/** The labels Lambda. */
import { createResourceHandler } from '#functions/http/http-handler.js';
import { labelRoutes } from './routes.js';

export const handler = createResourceHandler(labelRoutes);
