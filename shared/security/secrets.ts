/** API key material: generation, hashing and constant-time comparison. Only hashes are ever stored. */
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { API_KEY_PREFIX, KEY_PREFIX_LENGTH } from '../domain/api-key.js';

/** A new plaintext key: `wg_` + 64 lowercase hex characters (256 bits). */
export function generateApiKey(): string {
  return `${API_KEY_PREFIX}${randomBytes(32).toString('hex')}`;
}

/** SHA-256 hex of the key: what the store keeps and looks up by. */
export function hashApiKey(plaintext: string): string {
  return createHash('sha256').update(plaintext, 'utf8').digest('hex');
}

/** The displayable start of a key (`wg_` + 9 hex). */
export function apiKeyPrefix(plaintext: string): string {
  return plaintext.slice(0, KEY_PREFIX_LENGTH);
}

/**
 * Compares two secrets in time independent of where they differ. Both sides are hashed first so that inputs of
 * different lengths cost the same and never short-circuit.
 */
export function constantTimeEquals(a: string, b: string): boolean {
  const ha = createHash('sha256').update(a, 'utf8').digest();
  const hb = createHash('sha256').update(b, 'utf8').digest();
  return timingSafeEqual(ha, hb);
}
