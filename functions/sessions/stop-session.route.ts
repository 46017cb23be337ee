import { defineRoute } from '#functions/http/route.js';
import { SessionResponse } from '#shared/domain/session.js';
import { stopSession } from '#shared/use-cases/sessions/engine-controls.js';
import { SessionIdParams } from './params.js';

/** POST /api/sessions/{id}/stop: stop the engine, keep credentials. */
export const stopSessionRoute = defineRoute({
  method: 'POST',
  path: '/api/sessions/{id}/stop',
  summary: 'Stop a session',
  tag: 'Sessions',
  auth: { role: 'operator' },
  params: SessionIdParams,
  response: SessionResponse,
  success: 200,
  errors: [404, 409, 502],
  run: ({ deps, caller, params }) => stopSession(deps, caller, params.id),
});
