import { defineRoute } from '#functions/http/route.js';
import { ApiKeyResponse, UpdateApiKeyBody } from '#shared/domain/api-key.js';
import { updateApiKey } from '#shared/use-cases/api-keys/manage-api-keys.js';
import { ApiKeyIdParams } from './params.js';

/** PUT /api/auth/api-keys/{id}: partial update (409 when it removes the last usable admin key). */
export const updateApiKeyRoute = defineRoute({
  method: 'PUT',
  path: '/api/auth/api-keys/{id}',
  summary: 'Update an API key',
  tag: 'API keys',
  auth: { role: 'admin', unscoped: true },
  params: ApiKeyIdParams,
  body: UpdateApiKeyBody,
  response: ApiKeyResponse,
  success: 200,
  errors: [404, 409],
  run: ({ deps, caller, params, body }) => updateApiKey(deps, caller, params.id, body),
});
