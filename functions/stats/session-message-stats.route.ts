import { z } from 'zod';
import { defineRoute } from '#functions/http/route.js';
import { SessionStatus } from '#shared/domain/session.js';
import { sessionMessageStats } from '#shared/use-cases/stats/session-message-stats.js';

const Count = z.number().int().min(0);

const SessionStatsParams = z.strictObject({ sessionId: z.uuid({ message: 'must be a session id (uuid)' }) });

const SessionMessageStatsResponse = z
  .object({
    session: z.object({ id: z.uuid(), name: z.string(), status: SessionStatus }),
    messages: z
      .object({
        sent: Count,
        received: Count,
        today: Count.describe('Sent and received since midnight UTC'),
        failed: Count,
      })
      .describe('All time, counted when stored; failed sends are not counted as sent'),
    topChats: z
      .array(z.object({ chatId: z.string(), count: Count, lastActive: z.iso.datetime() }))
      .describe('At most 10, over the last 30 UTC days'),
    hourlyActivity: z
      .array(z.object({ hour: z.number().int().min(0).max(23), sent: Count, received: Count }))
      .length(24)
      .describe('The last 24 hours by UTC hour of day, oldest first'),
  })
  .meta({ id: 'SessionMessageStats' });

/** GET /api/stats/sessions/{sessionId}: one session's message numbers. */
export const sessionMessageStatsRoute = defineRoute({
  method: 'GET',
  path: '/api/stats/sessions/{sessionId}',
  summary: 'Message statistics of a session',
  tag: 'Statistics',
  auth: { role: 'viewer' },
  params: SessionStatsParams,
  response: SessionMessageStatsResponse,
  success: 200,
  errors: [404],
  run: ({ deps, caller, params }) => sessionMessageStats(deps, caller, params.sessionId),
});
