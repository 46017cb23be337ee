import { defineRoute } from '#functions/http/route.js';
import { SessionProxyResponse, UpdateSessionProxyBody } from '#shared/domain/session-proxy.js';
import { updateSessionProxy } from '#shared/use-cases/sessions/session-settings.js';
import { SessionIdParams } from './params.js';

/**
 * PATCH /api/sessions/{id}/proxy: sets the proxy URL (null: connect directly), admin keys not limited to sessions
 * only; the session's next start connects through it. Answers the masked view.
 */
export const updateSessionProxyRoute = defineRoute({
  method: 'PATCH',
  path: '/api/sessions/{id}/proxy',
  summary: 'Set the session proxy (applies on the next start)',
  tag: 'Sessions',
  auth: { role: 'admin', unscoped: true },
  params: SessionIdParams,
  body: UpdateSessionProxyBody,
  response: SessionProxyResponse,
  success: 200,
  errors: [404],
  run: ({ deps, caller, params, body }) => updateSessionProxy(deps, caller, params.id, body),
});
