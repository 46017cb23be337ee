import { defineRoute } from '#functions/http/route.js';
import { ResolvedSessionConfig, UpdateSessionConfigBody } from '#shared/domain/session-config.js';
import { updateSessionConfig } from '#shared/use-cases/sessions/session-settings.js';
import { SessionIdParams } from './params.js';

/**
 * PATCH /api/sessions/{id}/config: merges the given keys (null clears one) and answers the resolved config; the
 * session's next start uses it. 409 CONFLICT when the config changed concurrently.
 */
export const updateSessionConfigRoute = defineRoute({
  method: 'PATCH',
  path: '/api/sessions/{id}/config',
  summary: 'Change the session config (applies on the next start)',
  tag: 'Sessions',
  auth: { role: 'operator' },
  params: SessionIdParams,
  body: UpdateSessionConfigBody,
  response: ResolvedSessionConfig,
  success: 200,
  errors: [404, 409],
  run: ({ deps, caller, params, body }) => updateSessionConfig(deps, caller, params.id, body),
});
