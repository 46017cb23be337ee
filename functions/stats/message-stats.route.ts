import { z } from 'zod';
import { defineRoute } from '#functions/http/route.js';
import { STATS_PERIODS, type StatsPeriod } from '#shared/domain/message-stats.js';
import { messageStats } from '#shared/use-cases/stats/message-stats.js';

const Count = z.number().int().min(0);
const PERIODS = Object.keys(STATS_PERIODS) as [StatsPeriod, ...StatsPeriod[]];

const MessageStatsQuery = z.strictObject({
  period: z.enum(PERIODS).default('24h').describe('24h: by hour; 7d and 30d: by UTC day'),
});

const MessageStatsResponse = z
  .object({
    period: z.enum(PERIODS),
    timeSeries: z
      .array(
        z.object({
          timestamp: z.iso.datetime().describe('Start of the bucket'),
          sent: Count,
          received: Count,
        }),
      )
      .describe('Oldest first, the current hour or day included'),
    byType: z.record(z.string(), Count).describe('Messages of the period per type, both directions'),
    bySession: z
      .array(z.object({ sessionId: z.uuid(), name: z.string(), sent: Count, received: Count }))
      .describe('Every session of the key, busiest first'),
    topChats: z
      .array(z.object({ sessionId: z.uuid(), chatId: z.string(), messageCount: Count }))
      .describe('At most 10, counted over whole UTC days back to the first of the period'),
  })
  .meta({ id: 'MessageStats' });

/** GET /api/stats/messages: the period's traffic by time, type, session and chat, over the key's sessions. */
export const messageStatsRoute = defineRoute({
  method: 'GET',
  path: '/api/stats/messages',
  summary: 'Message statistics over a period',
  tag: 'Statistics',
  auth: { role: 'admin' },
  query: MessageStatsQuery,
  response: MessageStatsResponse,
  success: 200,
  run: ({ deps, caller, query }) => messageStats(deps, caller, query.period),
});
