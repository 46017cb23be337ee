/** API key material: generation, hashing and constant-time comparison. Only hashes are ever stored. */
import { createHash, hash, randomBytes, timingSafeEqual } from 'node:crypto';
import { API_KEY_PREFIX, KEY_PREFIX_LENGTH } from '#shared/domain/api-key.js';

/** A new plaintext key: `wg_` + 64 lowercase hex characters (256 bits). */
export function generateApiKey(): string {
  return `${API_KEY_PREFIX}${randomBytes(32).toString('hex')}`;
}

/**
 * SHA-256 hex of the key: what the store keeps and looks up by. Every authenticated request hashes once: the
 * one-shot `hash` costs about a quarter of a `createHash` object.
 */
export function hashApiKey(plaintext: string): string {
  return hash('sha256', plaintext, 'hex');
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

/**
 * Constant-time equality of two hex digests (e.g. a stored and a computed key hash): every character is compared
 * whatever the earlier ones were. No allocation, since it runs on every authenticated request.
 */
export function digestsEqual(a: string, b: string): boolean {
  if (a.length !== b.length || a.length === 0) return false;
  let difference = 0;
  for (let i = 0; i < a.length; i++) difference |= a.charCodeAt(i) ^ b.charCodeAt(i);
  return difference === 0;
}
