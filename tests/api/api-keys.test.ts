/**
 * /api/auth/api-keys: every route's success shape (plaintext once, keyPrefix only on reads, role default operator),
 * body validation (400), unknown ids (404), and that a refused write leaves the key list untouched.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { type ApiResponse, startTestGateway, type TestGateway } from '#tests/helpers/test-gateway.js';

const KEY_FORMAT = /^wg_[0-9a-f]{64}$/;
/** A well-formed session id that names no session. */
const UNKNOWN_SESSION = '00000000-0000-4000-8000-00000000abcd';
const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/;
const READ_FIELDS = [
  'allowedChats',
  'allowedIps',
  'allowedSessions',
  'createdAt',
  'expiresAt',
  'id',
  'isActive',
  'keyPrefix',
  'lastUsedAt',
  'name',
  'role',
  'updatedAt',
  'usageCount',
];

/** A read of a key: exactly the documented fields, never the hash or the plaintext. */
function expectKeyRead(body: Record<string, unknown>): void {
  expect(Object.keys(body).sort()).toEqual(READ_FIELDS);
  expect(body).not.toHaveProperty('keyHash');
  expect(body).not.toHaveProperty('apiKey');
  expect(body.keyPrefix).toMatch(/^wg_[0-9a-f]{9}$/);
  expect(body.createdAt).toMatch(ISO);
  expect(body.updatedAt).toMatch(ISO);
}

describe('API key administration', () => {
  let gw: TestGateway;
  /** The key list without the usage stats, which every authenticated request moves. */
  const keyList = async () =>
    (await gw.request<Record<string, unknown>[]>('GET', '/api/auth/api-keys')).body.map(
      ({ usageCount: _count, lastUsedAt: _at, ...rest }) => rest,
    );

  beforeAll(async () => {
    gw = await startTestGateway();
  });
  afterAll(async () => {
    await gw.close();
  });

  it('POST creates a key and answers its plaintext once (wg_ + 64 hex), role operator by default', async () => {
    const res = await gw.request('POST', '/api/auth/api-keys', { body: { name: 'ci runner' } });
    expect(res.status).toBe(201);
    expect(res.body.apiKey).toMatch(KEY_FORMAT);
    expect(res.body.keyPrefix).toHaveLength(12);
    expect(res.body.apiKey.startsWith(res.body.keyPrefix)).toBe(true);
    expect(res.body).toMatchObject({
      name: 'ci runner',
      role: 'operator',
      allowedIps: null,
      allowedSessions: null,
      isActive: true,
      expiresAt: null,
      lastUsedAt: null,
      usageCount: 0,
    });
    expect(res.body).not.toHaveProperty('keyHash');
    const { apiKey: _plaintext, ...read } = res.body;
    expectKeyRead(read);

    // The plaintext works, and no later read ever carries it again.
    const validated = await gw.request('POST', '/api/auth/validate', { key: res.body.apiKey });
    expect(validated.status).toBe(200);
    const fetched = await gw.request('GET', `/api/auth/api-keys/${res.body.id}`);
    expect(fetched.status).toBe(200);
    expectKeyRead(fetched.body);
    expect(fetched.text).not.toContain(res.body.apiKey);
    expect(fetched.text).not.toContain(res.body.apiKey.slice(12));
  });

  it('POST stores restrictions, role and expiry as given', async () => {
    const expiresAt = new Date(Date.now() + 86_400_000).toISOString();
    const sessions = [(await gw.createSession()).id, (await gw.createSession()).id];
    const res = await gw.request('POST', '/api/auth/api-keys', {
      body: {
        name: 'scoped viewer',
        role: 'viewer',
        allowedIps: ['127.0.0.1', '10.1.0.0/16'],
        allowedSessions: sessions,
        expiresAt,
      },
    });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({
      role: 'viewer',
      allowedIps: ['127.0.0.1', '10.1.0.0/16'],
      allowedSessions: sessions,
      expiresAt,
    });
    // Empty lists mean "no restriction".
    const open = await gw.request('POST', '/api/auth/api-keys', {
      body: { name: 'open lists', allowedIps: [], allowedSessions: [] },
    });
    expect(open.status).toBe(201);
    expect(open.body).toMatchObject({ allowedIps: null, allowedSessions: null });
  });

  it('GET lists every key, newest first, reads only', async () => {
    const created = await gw.createKey({ name: 'listed key' });
    const res = await gw.request<Record<string, unknown>[]>('GET', '/api/auth/api-keys');
    expect(res.status).toBe(200);
    expect(Array.isArray(res.body)).toBe(true);
    expect(res.body[0]?.id).toBe(created.id);
    for (const key of res.body) expectKeyRead(key);
    expect(res.text).not.toContain(created.key);
    expect(res.body.some((k) => k.role === 'admin' && k.keyPrefix === gw.adminKey.slice(0, 12))).toBe(true);
  });

  it('PUT updates fields partially; null and empty lists clear restrictions', async () => {
    const { id } = await gw.createKey({ name: 'to update', allowedIps: ['127.0.0.1'] });
    const renamed = await gw.request('PUT', `/api/auth/api-keys/${id}`, { body: { name: 'renamed key' } });
    expect(renamed.status).toBe(200);
    expectKeyRead(renamed.body);
    expect(renamed.body).toMatchObject({ name: 'renamed key', role: 'operator', allowedIps: ['127.0.0.1'] });

    const onlyThis = (await gw.createSession()).id;
    const changed = await gw.request('PUT', `/api/auth/api-keys/${id}`, {
      body: { role: 'viewer', allowedIps: null, allowedSessions: [onlyThis] },
    });
    expect(changed.status).toBe(200);
    expect(changed.body).toMatchObject({ role: 'viewer', allowedIps: null, allowedSessions: [onlyThis] });

    const cleared = await gw.request('PUT', `/api/auth/api-keys/${id}`, { body: { allowedSessions: [] } });
    expect(cleared.body.allowedSessions).toBeNull();

    const expiresAt = new Date(Date.now() + 3_600_000).toISOString();
    const expiring = await gw.request('PUT', `/api/auth/api-keys/${id}`, { body: { expiresAt } });
    expect(expiring.body.expiresAt).toBe(expiresAt);
    const unexpiring = await gw.request('PUT', `/api/auth/api-keys/${id}`, { body: { expiresAt: null } });
    expect(unexpiring.body.expiresAt).toBeNull();

    const fetched = await gw.request('GET', `/api/auth/api-keys/${id}`);
    expect(fetched.body).toMatchObject({ name: 'renamed key', role: 'viewer', expiresAt: null });
  });

  it('POST {id}/revoke deactivates the key, which then authenticates no more', async () => {
    const { id, key } = await gw.createKey({ name: 'to revoke' });
    const res = await gw.request('POST', `/api/auth/api-keys/${id}/revoke`);
    expect(res.status).toBe(200);
    expectKeyRead(res.body);
    expect(res.body).toMatchObject({ id, isActive: false });
    expect((await gw.request('GET', '/api/sessions', { key })).status).toBe(401);
    expect((await gw.request('GET', `/api/auth/api-keys/${id}`)).body.isActive).toBe(false);
  });

  it('DELETE {id} answers 204 with no body and the key is gone', async () => {
    const { id, key } = await gw.createKey({ name: 'to delete' });
    const res = await gw.request('DELETE', `/api/auth/api-keys/${id}`);
    expect(res.status).toBe(204);
    expect(res.text).toBe('');
    expect((await gw.request('GET', `/api/auth/api-keys/${id}`)).status).toBe(404);
    expect((await keyList()).some((k) => k.id === id)).toBe(false);
    expect((await gw.request('POST', '/api/auth/validate', { key })).status).toBe(401);
  });

  it('unknown ids are 404 NOT_FOUND on get, update, revoke and delete', async () => {
    const missing = '00000000-0000-4000-8000-000000000000';
    const calls: [string, string, unknown][] = [
      ['GET', `/api/auth/api-keys/${missing}`, undefined],
      ['PUT', `/api/auth/api-keys/${missing}`, { name: 'whatever' }],
      ['POST', `/api/auth/api-keys/${missing}/revoke`, undefined],
      ['DELETE', `/api/auth/api-keys/${missing}`, undefined],
    ];
    for (const [method, path, body] of calls) {
      const res = await gw.request(method, path, body === undefined ? {} : { body });
      expect([method, res.status, res.body.code]).toEqual([method, 404, 'NOT_FOUND']);
    }
  });

  describe('invalid bodies are 400 and write nothing', () => {
    const expect400 = (res: ApiResponse<any>, field?: string) => {
      expect(res.status).toBe(400);
      expect(res.body.code).toBe('VALIDATION_FAILED');
      if (field) {
        expect(res.body.details).toEqual(
          expect.arrayContaining([expect.objectContaining({ path: expect.stringContaining(field) })]),
        );
      }
    };

    const badCreates: [string, Record<string, unknown>, string | undefined][] = [
      ['an unknown field', { name: 'valid name', isActive: true }, 'body'],
      ['a name too short', { name: 'ab' }, 'body.name'],
      ['a name too long', { name: 'n'.repeat(101) }, 'body.name'],
      ['a missing name', { role: 'viewer' }, 'body.name'],
      ['an unknown role', { name: 'valid name', role: 'superuser' }, 'body.role'],
      ['a malformed IP entry', { name: 'valid name', allowedIps: ['10.0.0.256'] }, 'body.allowedIps'],
      ['a CIDR prefix over 32', { name: 'valid name', allowedIps: ['10.0.0.0/33'] }, 'body.allowedIps'],
      ['an IPv6 entry', { name: 'valid name', allowedIps: ['::1'] }, 'body.allowedIps'],
      ['an IPv6 CIDR', { name: 'valid name', allowedIps: ['2001:db8::/32'] }, 'body.allowedIps'],
      ['allowedIps not a list', { name: 'valid name', allowedIps: '127.0.0.1' }, 'body.allowedIps'],
      [
        'duplicate allowedSessions',
        { name: 'valid name', allowedSessions: [UNKNOWN_SESSION, UNKNOWN_SESSION] },
        'body.allowedSessions',
      ],
      [
        'a non-uuid allowedSessions entry',
        { name: 'valid name', allowedSessions: ['not-a-uuid'] },
        'body.allowedSessions.0',
      ],
      [
        'an unknown session in allowedSessions',
        { name: 'valid name', allowedSessions: [UNKNOWN_SESSION] },
        'body.allowedSessions.0',
      ],
      ['an unparseable expiresAt', { name: 'valid name', expiresAt: 'next tuesday' }, 'body.expiresAt'],
      ['a numeric expiresAt', { name: 'valid name', expiresAt: Date.now() + 60_000 }, 'body.expiresAt'],
      [
        'a past expiresAt',
        { name: 'valid name', expiresAt: new Date(Date.now() - 60_000).toISOString() },
        undefined,
      ],
      ['a name of the wrong type', { name: 12345 }, 'body.name'],
    ];
    it.each(badCreates)('create with %s', async (_label, body, field) => {
      const before = await keyList();
      const res = await gw.request('POST', '/api/auth/api-keys', { body });
      expect400(res, field);
      expect(await keyList()).toEqual(before);
    });

    it('update with isActive, a past or bad expiresAt, a bad IP, a short name or unknown sessions', async () => {
      const { id } = await gw.createKey({ name: 'update target' });
      const before = await gw.request('GET', `/api/auth/api-keys/${id}`);
      expect(before.body.usageCount).toBe(0);
      const bodies: [Record<string, unknown>, string | undefined][] = [
        [{ isActive: false }, 'body'],
        [{ isActive: true, name: 'still valid' }, 'body'],
        [{ expiresAt: new Date(Date.now() - 1000).toISOString() }, undefined],
        [{ expiresAt: '2020-13-45' }, 'body.expiresAt'],
        [{ allowedIps: ['fe80::1'] }, 'body.allowedIps'],
        [{ allowedSessions: ['x', 'x'] }, 'body.allowedSessions'],
        [{ allowedSessions: ['not-a-uuid'] }, 'body.allowedSessions.0'],
        [{ allowedSessions: [UNKNOWN_SESSION] }, 'body.allowedSessions.0'],
        [{ name: 'no' }, 'body.name'],
        [{ role: 'root' }, 'body.role'],
        [{ keyHash: 'f'.repeat(64) }, 'body'],
      ];
      for (const [body, field] of bodies)
        expect400(await gw.request('PUT', `/api/auth/api-keys/${id}`, { body }), field);
      expect((await gw.request('GET', `/api/auth/api-keys/${id}`)).body).toEqual(before.body);
    });

    it('allowedSessions naming unknown sessions is 400 naming exactly the missing ids', async () => {
      const known = (await gw.createSession()).id;
      const missing = ['00000000-0000-4000-8000-000000000001', '00000000-0000-4000-8000-000000000002'];
      const before = await keyList();
      const res = await gw.request('POST', '/api/auth/api-keys', {
        body: { name: 'partly unknown scope', allowedSessions: [missing[0], known, missing[1]] },
      });
      expect400(res);
      expect(res.body.message).toContain(`${missing[0]}, ${missing[1]}`);
      expect(res.body.message).not.toContain(known);
      expect(res.body.details.map((d: { path: string }) => d.path)).toEqual([
        'body.allowedSessions.0',
        'body.allowedSessions.2',
      ]);
      expect(await keyList()).toEqual(before);
    });

    it('revoke and delete take no body', async () => {
      const { id } = await gw.createKey({ name: 'bodyless routes' });
      expect400(
        await gw.request('POST', `/api/auth/api-keys/${id}/revoke`, { body: { force: true } }),
        'body',
      );
      expect((await gw.request('GET', `/api/auth/api-keys/${id}`)).body.isActive).toBe(true);
      expect400(await gw.request('POST', '/api/auth/validate', { body: { key: gw.adminKey } }), 'body');
    });
  });
});
