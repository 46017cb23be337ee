/**
 * Authentication of REST requests: 401 for missing, unknown, revoked and expired keys; 403 for a role too low, a
 * session-scoped key on an unscoped route, or a client IP outside the allowlist; `Authorization: Bearer`;
 * POST /api/auth/validate; and coalesced usage statistics.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { embeddedOnly, startTestGateway, type TestGateway, waitFor } from '#tests/helpers/test-gateway.js';

const UNKNOWN_KEY = `wg_${'ab'.repeat(32)}`;
const MISSING_ID = '00000000-0000-4000-8000-000000000000';

/** One call of every key-administration route, for the role and scope checks. */
const KEY_ROUTES: [string, string, unknown][] = [
  ['POST', '/api/auth/api-keys', { name: 'should not exist' }],
  ['GET', '/api/auth/api-keys', undefined],
  ['GET', `/api/auth/api-keys/${MISSING_ID}`, undefined],
  ['PUT', `/api/auth/api-keys/${MISSING_ID}`, { name: 'renamed' }],
  ['DELETE', `/api/auth/api-keys/${MISSING_ID}`, undefined],
  ['POST', `/api/auth/api-keys/${MISSING_ID}/revoke`, undefined],
];

describe('authentication', () => {
  let gw: TestGateway;
  const call = (method: string, path: string, key: string | null, body?: unknown) =>
    gw.request(method, path, body === undefined ? { key } : { key, body });
  const keyCount = async () => (await gw.request<unknown[]>('GET', '/api/auth/api-keys')).body.length;

  beforeAll(async () => {
    gw = await startTestGateway();
  });
  afterAll(async () => {
    await gw.close();
  });

  describe('401', () => {
    it.each([
      ['no key', null, 'Missing API key'],
      ['an unknown well-formed key', UNKNOWN_KEY, 'Invalid API key'],
      ['a malformed key', 'not-a-key', 'Invalid API key'],
    ])('%s is refused on every authenticated route', async (_label, key, message) => {
      for (const [method, path] of [
        ['GET', '/api/sessions'],
        ['GET', '/api/auth/api-keys'],
        ['GET', '/api/audit'],
        ['POST', '/api/auth/validate'],
      ] as const) {
        const res = await call(method, path, key);
        expect([path, res.status]).toEqual([path, 401]);
        expect(res.body).toEqual({ statusCode: 401, error: 'Unauthorized', message, code: 'UNAUTHORIZED' });
      }
    });

    it('a blank X-API-Key header is a missing key', async () => {
      const res = await gw.request('GET', '/api/sessions', { headers: { 'x-api-key': '   ' } });
      expect([res.status, res.body.message]).toEqual([401, 'Missing API key']);
    });

    embeddedOnly(
      it,
      'a revocation reaches other Lambda instances within API_KEY_CACHE_TTL_MS (their key cache; docs/configuration.md), not at once',
    )('a revoked key is refused and the body never echoes the key', async () => {
      const { id, key } = await gw.createKey({ name: 'revoked soon' });
      expect((await call('GET', '/api/sessions', key)).status).toBe(200);
      expect((await gw.request('POST', `/api/auth/api-keys/${id}/revoke`)).status).toBe(200);
      const res = await call('GET', '/api/sessions', key);
      expect([res.status, res.body.message]).toEqual([401, 'API key is revoked']);
      expect(res.text).not.toContain(key);
    });

    it('a key past its expiresAt is refused', async () => {
      const expiresAt = new Date(Date.now() + 1500).toISOString();
      const { key } = await gw.createKey({ name: 'expires soon', expiresAt });
      expect((await call('GET', '/api/sessions', key)).status).toBe(200);
      await waitFor(async () => (await call('GET', '/api/sessions', key)).status === 401, 5000, 100);
      const res = await call('POST', '/api/auth/validate', key);
      expect([res.status, res.body.message]).toEqual([401, 'API key has expired']);
      expect(Date.now()).toBeGreaterThanOrEqual(Date.parse(expiresAt));
    });
  });

  describe('403', () => {
    it('operator and viewer keys may not administer keys (FORBIDDEN_ROLE) and write nothing', async () => {
      const before = await keyCount();
      for (const role of ['operator', 'viewer']) {
        const { key } = await gw.createKey({ name: `${role} key`, role });
        for (const [method, path, body] of KEY_ROUTES) {
          const res = await call(method, path, key, body);
          expect([role, method, path, res.status, res.body.code]).toEqual([
            role,
            method,
            path,
            403,
            'FORBIDDEN_ROLE',
          ]);
        }
        expect((await call('GET', '/api/audit', key)).status).toBe(403);
        // The same key is fine where its role suffices.
        expect((await call('POST', '/api/auth/validate', key)).status).toBe(200);
        expect((await call('GET', '/api/sessions', key)).status).toBe(200);
      }
      expect(await keyCount()).toBe(before + 2);
    });

    it('a session-scoped admin key is refused on key administration (FORBIDDEN_SCOPED_KEY)', async () => {
      const session = await gw.createSession();
      const { key } = await gw.createKey({
        name: 'scoped admin',
        role: 'admin',
        allowedSessions: [session.id],
      });
      const before = await keyCount();
      for (const [method, path, body] of KEY_ROUTES) {
        const res = await call(method, path, key, body);
        expect([method, path, res.status, res.body.code]).toEqual([
          method,
          path,
          403,
          'FORBIDDEN_SCOPED_KEY',
        ]);
      }
      expect(await keyCount()).toBe(before);
      expect((await call('GET', `/api/sessions/${session.id}`, key)).status).toBe(200);
    });

    it('an IP allowlist without the client address refuses every route (FORBIDDEN_IP)', async () => {
      const { key } = await gw.createKey({
        name: 'elsewhere',
        role: 'admin',
        allowedIps: ['10.9.9.9', '192.168.0.0/16'],
      });
      for (const [method, path] of [
        ['GET', '/api/sessions'],
        ['GET', '/api/auth/api-keys'],
        ['GET', '/api/audit'],
        ['POST', '/api/auth/validate'],
      ] as const) {
        const res = await call(method, path, key);
        expect([path, res.status, res.body.code]).toEqual([path, 403, 'FORBIDDEN_IP']);
      }
    });

    it('an allowlist that contains the client address (exactly or by CIDR) admits it', async () => {
      for (const allowedIps of [['127.0.0.1'], ['10.0.0.1', '127.0.0.0/8'], ['0.0.0.0/0']]) {
        const { key } = await gw.createKey({ name: 'local only', role: 'admin', allowedIps });
        expect([allowedIps, (await call('GET', '/api/auth/api-keys', key)).status]).toEqual([
          allowedIps,
          200,
        ]);
      }
    });
  });

  describe('Authorization: Bearer', () => {
    it('is accepted on REST routes, with any case of the scheme', async () => {
      for (const scheme of ['Bearer', 'bearer']) {
        const res = await gw.request('GET', '/api/auth/api-keys', {
          headers: { authorization: `${scheme} ${gw.adminKey}` },
        });
        expect(res.status).toBe(200);
      }
      const { key } = await gw.createKey({ name: 'bearer operator' });
      const validated = await gw.request('POST', '/api/auth/validate', {
        headers: { authorization: `Bearer ${key}` },
      });
      expect([validated.status, validated.body.role]).toEqual([200, 'operator']);
    });

    it('other schemes are a missing key, and X-API-Key wins over Bearer', async () => {
      const basic = await gw.request('GET', '/api/sessions', {
        headers: { authorization: `Basic ${Buffer.from(`x:${gw.adminKey}`).toString('base64')}` },
      });
      expect([basic.status, basic.body.message]).toEqual([401, 'Missing API key']);
      const both = await gw.request('GET', '/api/sessions', {
        headers: { 'x-api-key': UNKNOWN_KEY, authorization: `Bearer ${gw.adminKey}` },
      });
      expect([both.status, both.body.message]).toEqual([401, 'Invalid API key']);
    });
  });

  describe('POST /api/auth/validate', () => {
    it('describes a valid key: role, scope, id and name', async () => {
      const admin = await gw.request('POST', '/api/auth/validate');
      expect(admin.status).toBe(200);
      expect(admin.body).toMatchObject({ valid: true, role: 'admin', scoped: false });
      expect(typeof admin.body.keyId).toBe('string');

      const { key, id } = await gw.createKey({
        name: 'scoped viewer',
        role: 'viewer',
        allowedSessions: [(await gw.createSession()).id],
      });
      const scoped = await gw.request('POST', '/api/auth/validate', { key });
      expect(scoped.body).toEqual({
        valid: true,
        role: 'viewer',
        scoped: true,
        keyId: id,
        keyName: 'scoped viewer',
      });
      expect(scoped.text).not.toContain(key);
    });

    it('answers 401 for a missing or invalid key', async () => {
      expect((await gw.request('POST', '/api/auth/validate', { key: null })).status).toBe(401);
      expect((await gw.request('POST', '/api/auth/validate', { key: UNKNOWN_KEY })).status).toBe(401);
    });
  });

  it('usage statistics: usageCount and lastUsedAt follow the key’s requests after the flush interval', async () => {
    const { key, id } = await gw.createKey({ name: 'counted key' });
    const startedAt = new Date().toISOString();
    const uses = 4;
    for (let i = 0; i < uses; i++) expect((await call('GET', '/api/sessions', key)).status).toBe(200);
    const read = await waitFor(async () => {
      const res = await gw.request('GET', `/api/auth/api-keys/${id}`);
      return res.body.usageCount >= uses ? res.body : null;
    });
    expect(read.usageCount).toBe(uses);
    expect(read.lastUsedAt >= startedAt).toBe(true);
    // Refused requests are not usage: after a 403 and one more good request, the count grew by one.
    expect((await call('GET', '/api/auth/api-keys', key)).status).toBe(403);
    const lastGoodAt = new Date().toISOString();
    expect((await call('GET', '/api/sessions', key)).status).toBe(200);
    const after = await waitFor(async () => {
      const res = await gw.request('GET', `/api/auth/api-keys/${id}`);
      return res.body.lastUsedAt >= lastGoodAt ? res.body : null;
    });
    expect(after.usageCount).toBe(uses + 1);
  });
});

embeddedOnly(
  describe,
  'a Lambda instance has no shutdown to flush at: aws mode writes usage at the API_KEY_USAGE_FLUSH_MS interval (tested above)',
)('usage statistics are coalesced, not written per request', () => {
  let gw: TestGateway;
  beforeAll(async () => {
    gw = await startTestGateway({ API_KEY_USAGE_FLUSH_MS: '600000' });
  });
  afterAll(async () => {
    await gw.close();
  });

  it('keeps counts in memory until the flush (here: shutdown), then writes them all', async () => {
    const { key, id } = await gw.createKey({ name: 'buffered usage' });
    for (let i = 0; i < 5; i++) expect((await gw.request('GET', '/api/sessions', { key })).status).toBe(200);
    const unflushed = await gw.request('GET', `/api/auth/api-keys/${id}`);
    expect(unflushed.body).toMatchObject({ usageCount: 0, lastUsedAt: null });

    gw = await gw.restart();
    const flushed = await gw.request('GET', `/api/auth/api-keys/${id}`);
    expect(flushed.body.usageCount).toBe(5);
    expect(flushed.body.lastUsedAt).not.toBeNull();
  });
});
