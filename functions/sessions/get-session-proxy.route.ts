import { defineRoute } from '#functions/http/route.js';
import { SessionProxyResponse } from '#shared/domain/session-proxy.js';
import { getSessionProxy } from '#shared/use-cases/sessions/session-settings.js';
import { SessionIdParams } from './params.js';

/** GET /api/sessions/{id}/proxy: the session's proxy, masked (type, host:port, whether it has credentials). */
export const getSessionProxyRoute = defineRoute({
  method: 'GET',
  path: '/api/sessions/{id}/proxy',
  summary: 'Get the session proxy (masked)',
  tag: 'Sessions',
  auth: { role: 'viewer' },
  params: SessionIdParams,
  response: SessionProxyResponse,
  success: 200,
  errors: [404],
  run: ({ deps, caller, params }) => getSessionProxy(deps, caller, params.id),
});
