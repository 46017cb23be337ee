/** The routes of the health resource group (its Lambda), in the order the router tries them. */
import type { AnyRoute } from '#functions/http/route.js';
import { healthRoute } from './health.route.js';
import { metricsRoute } from './metrics.route.js';
import { readinessRoute } from './readiness.route.js';

export const healthRoutes: readonly AnyRoute[] = [healthRoute, readinessRoute, metricsRoute];
