import { z } from 'zod';
import { defineRoute } from '#functions/http/route.js';
import { PageQuery } from '#shared/domain/common.js';
import { SessionResponse } from '#shared/domain/session.js';
import { listSessions } from '#shared/use-cases/sessions/list-sessions.js';

// A repeated `name` arrives comma-joined (API Gateway style); names never contain commas, so it is refused.
const ListSessionsQuery = PageQuery.extend({
  name: z
    .string()
    .min(1)
    .max(100)
    .regex(/^[a-zA-Z0-9-]+$/, 'one exact session name')
    .optional(),
});

/** GET /api/sessions: sessions newest first, filtered to the key's sessions. */
export const listSessionsRoute = defineRoute({
  method: 'GET',
  path: '/api/sessions',
  summary: 'List sessions',
  tag: 'Sessions',
  auth: { role: 'viewer' },
  chats: 'none',
  query: ListSessionsQuery,
  response: z.array(SessionResponse),
  success: 200,
  run: ({ deps, caller, query }) => listSessions(deps, caller, query),
});
