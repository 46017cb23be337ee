import { z } from 'zod';
import { defineRoute } from '#functions/http/route.js';
import { SESSION_STATUSES } from '#shared/domain/session.js';
import { sessionStats } from '#shared/use-cases/sessions/session-stats.js';

const SessionStatsResponse = z
  .object({
    total: z.number().int(),
    active: z.number().int(),
    ready: z.number().int(),
    disconnected: z.number().int(),
    byStatus: z.record(z.enum(SESSION_STATUSES), z.number().int()),
    memoryUsage: z.object({ heapUsed: z.number(), heapTotal: z.number(), rss: z.number() }),
  })
  .meta({ id: 'SessionStats' });

/** GET /api/sessions/stats/overview: counts by status and this node's memory (MB). */
export const sessionStatsRoute = defineRoute({
  method: 'GET',
  path: '/api/sessions/stats/overview',
  summary: 'Session statistics',
  tag: 'Sessions',
  auth: { role: 'viewer' },
  chats: 'none',
  response: SessionStatsResponse,
  success: 200,
  run: ({ deps, caller }) => sessionStats(deps, caller),
});
