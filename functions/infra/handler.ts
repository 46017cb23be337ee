/** The infra Lambda. */
import { createResourceHandler } from '#functions/http/http-handler.js';
import { infraRoutes } from './routes.js';

export const handler = createResourceHandler(infraRoutes);
