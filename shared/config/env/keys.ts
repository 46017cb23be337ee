/** Env of the API keys: the first admin key and how the per-request key lookups are cached and counted. */
import { z } from 'zod';
import { limit, optionalMatching, optionalString } from './fields.js';

export const KeysEnv = z.object({
  BOOTSTRAP_KEY_FILE: optionalString,
  BOOTSTRAP_ADMIN_KEY: optionalMatching(
    /^wg_[0-9a-f]{64}$/,
    'must be wg_ followed by 64 lowercase hex characters',
  ),
  API_KEY_USAGE_FLUSH_MS: limit(60_000),
  API_KEY_CACHE_TTL_MS: limit(5_000),
});
