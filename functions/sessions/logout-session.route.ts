import { defineRoute } from '#functions/http/route.js';
import { SessionResponse } from '#shared/domain/session.js';
import { logoutSession } from '#shared/use-cases/sessions/engine-controls.js';
import { SessionIdParams } from './params.js';

/** POST /api/sessions/{id}/logout: unlink the device (400 not started; 502 SESSION_LOGOUT_INCOMPLETE). */
export const logoutSessionRoute = defineRoute({
  method: 'POST',
  path: '/api/sessions/{id}/logout',
  summary: 'Log a session out (unlink the device)',
  tag: 'Sessions',
  auth: { role: 'operator' },
  params: SessionIdParams,
  response: SessionResponse,
  success: 200,
  errors: [400, 404, 502],
  run: ({ deps, caller, params }) => logoutSession(deps, caller, params.id),
});
