/** The routes of the auth resource group (its Lambda), in the order the router tries them. */
import type { AnyRoute } from '#functions/http/route.js';
import { createApiKeyRoute } from './create-api-key.route.js';
import { deleteApiKeyRoute } from './delete-api-key.route.js';
import { getApiKeyRoute } from './get-api-key.route.js';
import { listApiKeysRoute } from './list-api-keys.route.js';
import { revokeApiKeyRoute } from './revoke-api-key.route.js';
import { updateApiKeyRoute } from './update-api-key.route.js';
import { validateApiKeyRoute } from './validate-api-key.route.js';

export const authRoutes: readonly AnyRoute[] = [
  createApiKeyRoute,
  listApiKeysRoute,
  getApiKeyRoute,
  updateApiKeyRoute,
  deleteApiKeyRoute,
  revokeApiKeyRoute,
  validateApiKeyRoute,
];
