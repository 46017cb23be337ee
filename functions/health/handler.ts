/** The health Lambda: liveness, readiness and metrics. */
import { createResourceHandler } from '#functions/http/http-handler.js';
import { healthRoute } from './health.route.js';
import { metricsRoute } from './metrics.route.js';
import { readinessRoute } from './readiness.route.js';

export const healthRoutes = [healthRoute, readinessRoute, metricsRoute];

export const handler = createResourceHandler(healthRoutes);
