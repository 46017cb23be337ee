import { createHash } from 'node:crypto';
import { describe, expect, it } from '@jest/globals';
import { apiKeyPrefix, constantTimeEquals, generateApiKey, hashApiKey } from '#shared/security/secrets.js';

describe('API key material', () => {
  it('generates wg_ + 64 lowercase hex, different every time', () => {
    const a = generateApiKey();
    expect(a).toMatch(/^wg_[0-9a-f]{64}$/);
    expect(generateApiKey()).not.toBe(a);
  });

  it('stores the SHA-256 hex of the key and shows a 12-character prefix', () => {
    const key = generateApiKey();
    expect(hashApiKey(key)).toBe(createHash('sha256').update(key).digest('hex'));
    expect(apiKeyPrefix(key)).toBe(key.slice(0, 12));
  });

  it('compares secrets of any length without throwing', () => {
    expect(constantTimeEquals('token', 'token')).toBe(true);
    expect(constantTimeEquals('token', 'token2')).toBe(false);
    expect(constantTimeEquals('', 'x')).toBe(false);
  });
});
