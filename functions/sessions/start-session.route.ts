import { defineRoute } from '#functions/http/route.js';
import { SessionResponse } from '#shared/domain/session.js';
import { startSession } from '#shared/use-cases/sessions/start-session.js';
import { SessionIdParams } from './params.js';

/** POST /api/sessions/{id}/start: launch the engine through the command queue. */
export const startSessionRoute = defineRoute({
  method: 'POST',
  path: '/api/sessions/{id}/start',
  summary: 'Start a session',
  tag: 'Sessions',
  auth: { role: 'operator' },
  params: SessionIdParams,
  response: SessionResponse,
  success: 200,
  errors: [400, 404, 409],
  run: ({ deps, caller, params }) => startSession(deps, caller, params.id),
});
