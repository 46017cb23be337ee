import { z } from 'zod';
import { defineRoute, RawResponse } from '#functions/http/route.js';
import { checkReadiness } from '#shared/use-cases/health/readiness.js';

const Probe = z.object({ status: z.enum(['up', 'down']) });
const ReadinessResponse = z
  .object({
    status: z.enum(['ok', 'error']),
    details: z.object({
      mainDatabase: Probe,
      dataDatabase: Probe,
      /** Present while the process drains (SIGTERM): the answer is 503 then, whatever the stores say. */
      shutdown: z.object({ status: z.literal('draining') }).optional(),
    }),
  })
  .meta({ id: 'Readiness' });

/** GET /api/health/ready: 200 when both stores answer and no shutdown began, 503 otherwise. Public. */
export const readinessRoute = defineRoute({
  method: 'GET',
  path: '/api/health/ready',
  summary: 'Readiness: both stores answer and the gateway is not draining',
  tag: 'Health',
  auth: 'public',
  rateLimited: false,
  response: ReadinessResponse,
  success: 200,
  errors: [503],
  // A store down, or draining: the same body, with status error.
  errorBodies: { 503: ReadinessResponse },
  run: async ({ deps }) => {
    const readiness = await checkReadiness(deps);
    return new RawResponse(readiness.status === 'ok' ? 200 : 503, JSON.stringify(readiness), {
      'content-type': 'application/json; charset=utf-8',
    });
  },
});
