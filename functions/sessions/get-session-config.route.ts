import { defineRoute } from '#functions/http/route.js';
import { ResolvedSessionConfig } from '#shared/domain/session-config.js';
import { getSessionConfig } from '#shared/use-cases/sessions/session-settings.js';
import { SessionIdParams } from './params.js';

/** GET /api/sessions/{id}/config: the config keys the gateway reads, resolved (defaults, clamps). */
export const getSessionConfigRoute = defineRoute({
  method: 'GET',
  path: '/api/sessions/{id}/config',
  summary: 'Get the session config (resolved values)',
  tag: 'Sessions',
  auth: { role: 'viewer' },
  params: SessionIdParams,
  response: ResolvedSessionConfig,
  success: 200,
  errors: [404],
  run: ({ deps, caller, params }) => getSessionConfig(deps, caller, params.id),
});
