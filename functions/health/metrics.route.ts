import { NotFoundError, UnauthorizedError } from '../../shared/errors/app-error.js';
import { constantTimeEquals } from '../../shared/security/secrets.js';
import { defineRoute, RawResponse } from '../http/route.js';

/**
 * GET /api/metrics: Prometheus text. Guarded by its own bearer token (METRICS_TOKEN), not an API key; absent when
 * no token is configured (404), so a default install exposes nothing.
 */
export const metricsRoute = defineRoute({
  method: 'GET',
  path: '/api/metrics',
  summary: 'Prometheus metrics (Authorization: Bearer <METRICS_TOKEN>)',
  tag: 'Health',
  auth: 'public',
  success: 200,
  errors: [401, 404],
  run: async ({ deps, headers }) => {
    const token = deps.env.METRICS_TOKEN;
    if (!token) throw new NotFoundError('Route GET /api/metrics not found', { code: 'ROUTE_NOT_FOUND' });
    const presented = /^Bearer\s+(\S+)\s*$/i.exec(headers.authorization ?? '')?.[1] ?? '';
    if (!constantTimeEquals(presented, token)) throw new UnauthorizedError('Invalid metrics token');
    const registry = deps.metrics.registry;
    return new RawResponse(200, await registry.metrics(), { 'content-type': registry.contentType });
  },
});
