/** The auth Lambda: API key administration and key validation. */
import { createResourceHandler } from '#functions/http/http-handler.js';
import { authRoutes } from './routes.js';

export const handler = createResourceHandler(authRoutes);
