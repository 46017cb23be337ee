import { defineRoute } from '#functions/http/route.js';
import { ApiKeyResponse } from '#shared/domain/api-key.js';
import { getApiKey } from '#shared/use-cases/api-keys/manage-api-keys.js';
import { ApiKeyIdParams } from './params.js';

/** GET /api/auth/api-keys/{id}: one key. */
export const getApiKeyRoute = defineRoute({
  method: 'GET',
  path: '/api/auth/api-keys/{id}',
  summary: 'Get an API key',
  tag: 'API keys',
  auth: { role: 'admin', unscoped: true },
  params: ApiKeyIdParams,
  response: ApiKeyResponse,
  success: 200,
  errors: [404],
  run: ({ deps, params }) => getApiKey(deps, params.id),
});
