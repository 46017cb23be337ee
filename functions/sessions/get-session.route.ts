import { defineRoute } from '#functions/http/route.js';
import { SessionResponse } from '#shared/domain/session.js';
import { getSession } from '#shared/use-cases/sessions/get-session.js';
import { SessionIdParams } from './params.js';

/** GET /api/sessions/{id}: one session. */
export const getSessionRoute = defineRoute({
  method: 'GET',
  path: '/api/sessions/{id}',
  summary: 'Get a session',
  tag: 'Sessions',
  auth: { role: 'viewer' },
  chats: 'none',
  params: SessionIdParams,
  response: SessionResponse,
  success: 200,
  errors: [404],
  run: ({ deps, caller, params }) => getSession(deps, caller, params.id),
});
