import { defineRoute } from '#functions/http/route.js';
import { deleteApiKey } from '#shared/use-cases/api-keys/manage-api-keys.js';
import { ApiKeyIdParams } from './params.js';

/** DELETE /api/auth/api-keys/{id}: 204 (409 for the last usable admin key). */
export const deleteApiKeyRoute = defineRoute({
  method: 'DELETE',
  path: '/api/auth/api-keys/{id}',
  summary: 'Delete an API key',
  tag: 'API keys',
  auth: { role: 'admin', unscoped: true },
  params: ApiKeyIdParams,
  success: 204,
  errors: [404, 409],
  run: ({ deps, caller, params }) => deleteApiKey(deps, caller, params.id),
});
