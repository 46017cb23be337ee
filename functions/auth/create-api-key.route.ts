import { defineRoute } from '#functions/http/route.js';
import { CreateApiKeyBody, CreatedApiKeyResponse } from '#shared/domain/api-key.js';
import { createApiKey } from '#shared/use-cases/api-keys/manage-api-keys.js';

/** POST /api/auth/api-keys: create a key; the plaintext is in this response only. */
export const createApiKeyRoute = defineRoute({
  method: 'POST',
  path: '/api/auth/api-keys',
  summary: 'Create an API key',
  tag: 'API keys',
  auth: { role: 'admin', unscoped: true },
  body: CreateApiKeyBody,
  response: CreatedApiKeyResponse,
  success: 201,
  run: ({ deps, caller, body }) => createApiKey(deps, caller, body),
});
