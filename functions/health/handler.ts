/** The health Lambda: liveness, readiness and metrics. */
import { createResourceHandler } from '#functions/http/http-handler.js';
import { healthRoutes } from './routes.js';

export const handler = createResourceHandler(healthRoutes);
