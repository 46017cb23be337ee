import { z } from 'zod';
import { defineRoute } from '#functions/http/route.js';
import { Role } from '#shared/domain/roles.js';
import { describeCallerKey } from '#shared/use-cases/api-keys/validate-api-key.js';

const ValidationResponse = z
  .object({ valid: z.literal(true), role: Role, scoped: z.boolean(), keyId: z.string(), keyName: z.string() })
  .meta({ id: 'KeyValidation' });

/** POST /api/auth/validate: 200 for a usable key, 401 otherwise. */
export const validateApiKeyRoute = defineRoute({
  method: 'POST',
  path: '/api/auth/validate',
  summary: 'Validate the presented API key',
  tag: 'API keys',
  auth: { role: 'viewer' },
  chats: 'none',
  response: ValidationResponse,
  success: 200,
  run: async ({ caller }) => describeCallerKey(caller),
});
