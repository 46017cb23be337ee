import { z } from 'zod';
import { defineRoute } from '#functions/http/route.js';
import { ApiKeyResponse } from '#shared/domain/api-key.js';
import { listApiKeys } from '#shared/use-cases/api-keys/manage-api-keys.js';

/** GET /api/auth/api-keys: every key, newest first (keyPrefix only). */
export const listApiKeysRoute = defineRoute({
  method: 'GET',
  path: '/api/auth/api-keys',
  summary: 'List API keys',
  tag: 'API keys',
  auth: { role: 'admin', unscoped: true },
  response: z.array(ApiKeyResponse),
  success: 200,
  run: ({ deps }) => listApiKeys(deps),
});
