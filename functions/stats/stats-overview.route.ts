import { z } from 'zod';
import { defineRoute } from '#functions/http/route.js';
import { SESSION_STATUSES } from '#shared/domain/session.js';
import { statsOverview } from '#shared/use-cases/stats/stats-overview.js';

const Count = z.number().int().min(0);

const StatsOverviewResponse = z
  .object({
    sessions: z.object({
      active: Count.describe('Sessions whose engine runs or is starting'),
      total: Count,
      byStatus: z.record(z.enum(SESSION_STATUSES), Count),
    }),
    messages: z
      .object({
        sent: Count.describe('Outgoing messages, failed sends excluded'),
        received: Count,
        failed: Count,
        today: z.object({ sent: Count, received: Count }).describe('Since midnight UTC'),
      })
      .describe('All time, counted when stored (deleting messages does not lower them)'),
  })
  .meta({ id: 'StatsOverview' });

/** GET /api/stats/overview: sessions by status and message counts, over the key's sessions. */
export const statsOverviewRoute = defineRoute({
  method: 'GET',
  path: '/api/stats/overview',
  summary: 'Gateway statistics',
  tag: 'Statistics',
  auth: { role: 'admin' },
  response: StatsOverviewResponse,
  success: 200,
  run: ({ deps, caller }) => statsOverview(deps, caller),
});
