/** The auth Lambda: API key administration and key validation. */
import { createResourceHandler } from '#functions/http/http-handler.js';
import { createApiKeyRoute } from './create-api-key.route.js';
import { deleteApiKeyRoute } from './delete-api-key.route.js';
import { getApiKeyRoute } from './get-api-key.route.js';
import { listApiKeysRoute } from './list-api-keys.route.js';
import { revokeApiKeyRoute } from './revoke-api-key.route.js';
import { updateApiKeyRoute } from './update-api-key.route.js';
import { validateApiKeyRoute } from './validate-api-key.route.js';

export const authRoutes = [
  createApiKeyRoute,
  listApiKeysRoute,
  getApiKeyRoute,
  updateApiKeyRoute,
  deleteApiKeyRoute,
  revokeApiKeyRoute,
  validateApiKeyRoute,
];

export const handler = createResourceHandler(authRoutes);
