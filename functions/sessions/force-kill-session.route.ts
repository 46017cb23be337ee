import { defineRoute } from '#functions/http/route.js';
import { SessionResponse } from '#shared/domain/session.js';
import { forceKillSession } from '#shared/use-cases/sessions/engine-controls.js';
import { SessionIdParams } from './params.js';

/** POST /api/sessions/{id}/force-kill: kill a stuck engine (400 not started). */
export const forceKillSessionRoute = defineRoute({
  method: 'POST',
  path: '/api/sessions/{id}/force-kill',
  summary: 'Force-kill a session engine',
  tag: 'Sessions',
  auth: { role: 'operator' },
  params: SessionIdParams,
  response: SessionResponse,
  success: 200,
  errors: [400, 404],
  run: ({ deps, caller, params }) => forceKillSession(deps, caller, params.id),
});
