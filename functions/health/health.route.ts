import { z } from 'zod';
import { defineRoute } from '#functions/http/route.js';

const HealthResponse = z
  .object({ status: z.literal('ok'), timestamp: z.string(), version: z.string() })
  .meta({ id: 'Health' });

/** GET /api/health: liveness with the running release's version. Public. */
export const healthRoute = defineRoute({
  method: 'GET',
  path: '/api/health',
  summary: 'Health and version',
  tag: 'Health',
  auth: 'public',
  rateLimited: false,
  response: HealthResponse,
  success: 200,
  run: async ({ deps }) => ({
    status: 'ok',
    timestamp: deps.clock.now().toISOString(),
    version: deps.version,
  }),
});
