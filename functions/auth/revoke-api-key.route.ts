import { defineRoute } from '#functions/http/route.js';
import { ApiKeyResponse } from '#shared/domain/api-key.js';
import { revokeApiKey } from '#shared/use-cases/api-keys/manage-api-keys.js';
import { ApiKeyIdParams } from './params.js';

/** POST /api/auth/api-keys/{id}/revoke: deactivate (409 for the last usable admin key). */
export const revokeApiKeyRoute = defineRoute({
  method: 'POST',
  path: '/api/auth/api-keys/{id}/revoke',
  summary: 'Revoke an API key',
  tag: 'API keys',
  auth: { role: 'admin', unscoped: true },
  params: ApiKeyIdParams,
  response: ApiKeyResponse,
  success: 200,
  errors: [404, 409],
  run: ({ deps, caller, params }) => revokeApiKey(deps, caller, params.id),
});
