/**
 * The last usable admin key (active, role admin, not expired, no allowedSessions scope, no allowedIps) cannot be
 * revoked, deleted, demoted, given an expiry, scoped to sessions or restricted to IPs: 409 LAST_ADMIN_KEY naming
 * the change, and nothing changes. With a second usable admin the same changes are allowed; a revoked, expired,
 * scoped or IP-restricted second admin does not count.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { startTestGateway, type TestGateway, waitFor } from '#tests/helpers/test-gateway.js';

describe('last usable admin key', () => {
  let gw: TestGateway;
  let adminId: string;
  let replacement: { key: string; id: string };
  let sessionId: string;

  const inFuture = (ms: number) => new Date(Date.now() + ms).toISOString();
  const read = async (id: string, key = gw.adminKey) =>
    (await gw.request('GET', `/api/auth/api-keys/${id}`, { key })).body;

  /** Every change that would leave no usable admin, attempted on `id` with `key`: each is 409 and writes nothing. */
  async function expectAllRefused(id: string, key = gw.adminKey): Promise<void> {
    const before = await read(id, key);
    // Each attempt with the words its 409 message must carry to say which change was refused.
    const attempts: [string, string, unknown, string][] = [
      ['POST', `/api/auth/api-keys/${id}/revoke`, undefined, 'revoke'],
      ['DELETE', `/api/auth/api-keys/${id}`, undefined, 'delete'],
      ['PUT', `/api/auth/api-keys/${id}`, { role: 'operator' }, 'role to operator'],
      ['PUT', `/api/auth/api-keys/${id}`, { role: 'viewer', name: 'demoted admin' }, 'role to viewer'],
      ['PUT', `/api/auth/api-keys/${id}`, { expiresAt: inFuture(3_600_000) }, 'expiresAt'],
      ['PUT', `/api/auth/api-keys/${id}`, { allowedSessions: [sessionId] }, 'allowedSessions'],
      ['PUT', `/api/auth/api-keys/${id}`, { allowedIps: ['127.0.0.1'] }, 'allowedIps'],
      [
        'PUT',
        `/api/auth/api-keys/${id}`,
        { allowedIps: ['0.0.0.0/0'], allowedSessions: [sessionId], name: 'scoped admin' },
        'allowedSessions',
      ],
      // An expiry beside a scope is judged now, not at the expiry instant.
      [
        'PUT',
        `/api/auth/api-keys/${id}`,
        { allowedSessions: [sessionId], expiresAt: inFuture(86_400_000) },
        'allowedSessions',
      ],
    ];
    for (const [method, path, body, refused] of attempts) {
      const res = await gw.request(method, path, body === undefined ? { key } : { key, body });
      expect([method, path, body, res.status, res.body.code]).toEqual([
        method,
        path,
        body,
        409,
        'LAST_ADMIN_KEY',
      ]);
      expect(res.body).toMatchObject({ statusCode: 409, error: 'Conflict' });
      expect([body, res.body.message]).toEqual([body, expect.stringContaining(refused)]);
    }
    const after = await read(id, key);
    expect({ ...after, usageCount: 0, lastUsedAt: null }).toEqual({
      ...before,
      usageCount: 0,
      lastUsedAt: null,
    });
    expect((await gw.request('POST', '/api/auth/validate', { key })).status).toBe(200);
  }

  beforeAll(async () => {
    gw = await startTestGateway();
    const keys = (await gw.request('GET', '/api/auth/api-keys')).body as { id: string; role: string }[];
    expect(keys).toHaveLength(1);
    adminId = keys[0]!.id;
    sessionId = (await gw.createSession()).id;
  });
  afterAll(async () => {
    await gw.close();
  });

  it('refuses revoke, delete, demotion, an expiry, a session scope and an IP allowlist on the only admin key, and audits none of them', async () => {
    await expectAllRefused(adminId);
    // An accepted change afterwards is flushed after the refused ones would have been.
    const marker = await gw.createKey({ name: 'audit marker' });
    await waitFor(async () => {
      const res = await gw.request('GET', '/api/audit?action=api_key_created');
      return res.body.data.some(
        (e: { metadata: { targetKeyId?: string } }) => e.metadata.targetKeyId === marker.id,
      );
    });
    for (const action of ['api_key_revoked', 'api_key_deleted', 'api_key_updated']) {
      expect([action, (await gw.request('GET', `/api/audit?action=${action}`)).body.total]).toEqual([
        action,
        0,
      ]);
    }
    expect((await gw.request('DELETE', `/api/auth/api-keys/${marker.id}`)).status).toBe(204);
  });

  it('still allows harmless updates of the only admin key', async () => {
    const renamed = await gw.request('PUT', `/api/auth/api-keys/${adminId}`, {
      body: { name: 'Primary admin', role: 'admin', allowedIps: [], expiresAt: null },
    });
    expect(renamed.status).toBe(200);
    expect(renamed.body).toMatchObject({
      name: 'Primary admin',
      role: 'admin',
      isActive: true,
      expiresAt: null,
    });
  });

  it('operator and viewer keys do not count as admins', async () => {
    await gw.createKey({ name: 'an operator' });
    await gw.createKey({ name: 'a viewer', role: 'viewer' });
    await expectAllRefused(adminId);
  });

  it('allows every one of those changes while a second usable admin exists', async () => {
    const second = await gw.createKey({ name: 'second admin', role: 'admin' });

    // The second admin demotes, re-promotes and puts an expiry on the first, and the first does the same back.
    const demoted = await gw.request('PUT', `/api/auth/api-keys/${adminId}`, {
      key: second.key,
      body: { role: 'operator' },
    });
    expect([demoted.status, demoted.body.role]).toEqual([200, 'operator']);
    expect((await gw.request('GET', '/api/auth/api-keys')).status).toBe(403);
    const promoted = await gw.request('PUT', `/api/auth/api-keys/${adminId}`, {
      key: second.key,
      body: { role: 'admin' },
    });
    expect([promoted.status, promoted.body.role]).toEqual([200, 'admin']);

    const expiresAt = inFuture(3_600_000);
    const expiring = await gw.request('PUT', `/api/auth/api-keys/${second.id}`, { body: { expiresAt } });
    expect([expiring.status, expiring.body.expiresAt]).toEqual([200, expiresAt]);
    const cleared = await gw.request('PUT', `/api/auth/api-keys/${second.id}`, { body: { expiresAt: null } });
    expect([cleared.status, cleared.body.expiresAt]).toEqual([200, null]);

    // The first scopes the second to a session and to an IP, and clears both again.
    const scoped = await gw.request('PUT', `/api/auth/api-keys/${second.id}`, {
      body: { allowedSessions: [sessionId] },
    });
    expect([scoped.status, scoped.body.allowedSessions]).toEqual([200, [sessionId]]);
    expect((await gw.request('GET', '/api/auth/api-keys', { key: second.key })).body.code).toBe(
      'FORBIDDEN_SCOPED_KEY',
    );
    const restricted = await gw.request('PUT', `/api/auth/api-keys/${second.id}`, {
      body: { allowedSessions: null, allowedIps: ['192.0.2.1'] },
    });
    expect([restricted.status, restricted.body.allowedIps]).toEqual([200, ['192.0.2.1']]);
    expect((await gw.request('GET', '/api/auth/api-keys', { key: second.key })).body.code).toBe(
      'FORBIDDEN_IP',
    );
    // While the second is restricted the first is the last usable admin again: it may not restrict itself.
    const self = await gw.request('PUT', `/api/auth/api-keys/${adminId}`, {
      body: { allowedIps: ['127.0.0.1'] },
    });
    expect([self.status, self.body.code]).toEqual([409, 'LAST_ADMIN_KEY']);
    const reopened = await gw.request('PUT', `/api/auth/api-keys/${second.id}`, { body: { allowedIps: [] } });
    expect([reopened.status, reopened.body.allowedIps]).toEqual([200, null]);
    expect((await gw.request('GET', '/api/auth/api-keys', { key: second.key })).status).toBe(200);

    const revoked = await gw.request('POST', `/api/auth/api-keys/${second.id}/revoke`);
    expect([revoked.status, revoked.body.isActive]).toEqual([200, false]);

    const third = await gw.createKey({ name: 'third admin', role: 'admin' });
    expect((await gw.request('DELETE', `/api/auth/api-keys/${third.id}`)).status).toBe(204);
  });

  it('an expiry is refused when no other admin would still be usable at that instant', async () => {
    const expiring = await gw.createKey({
      name: 'admin for an hour',
      role: 'admin',
      expiresAt: inFuture(3_600_000),
    });
    const outlives = await gw.request('PUT', `/api/auth/api-keys/${adminId}`, {
      body: { expiresAt: inFuture(7_200_000) },
    });
    expect([outlives.status, outlives.body.code]).toEqual([409, 'LAST_ADMIN_KEY']);
    const within = await gw.request('PUT', `/api/auth/api-keys/${adminId}`, {
      body: { expiresAt: inFuture(1_800_000) },
    });
    expect(within.status).toBe(200);
    // Dropping the expiry again is always allowed; so is revoking the other admin afterwards.
    expect(
      (await gw.request('PUT', `/api/auth/api-keys/${adminId}`, { body: { expiresAt: null } })).status,
    ).toBe(200);
    expect((await gw.request('POST', `/api/auth/api-keys/${expiring.id}/revoke`)).status).toBe(200);
  });

  it('a scoped or IP-restricted admin does not count', async () => {
    await gw.createKey({ name: 'scoped admin', role: 'admin', allowedSessions: [sessionId] });
    await gw.createKey({ name: 'restricted admin', role: 'admin', allowedIps: ['127.0.0.1'] });
    await expectAllRefused(adminId);
  });

  it('a revoked admin does not count: the remaining one is the last again', async () => {
    const keys = (await gw.request('GET', '/api/auth/api-keys')).body as {
      role: string;
      isActive: boolean;
    }[];
    expect(keys.some((k) => k.role === 'admin' && !k.isActive)).toBe(true);
    await expectAllRefused(adminId);
  });

  it('a new admin may revoke the bootstrap key, and then is the last usable admin itself', async () => {
    replacement = await gw.createKey({ name: 'replacement admin', role: 'admin' });
    const revoked = await gw.request('POST', `/api/auth/api-keys/${adminId}/revoke`, {
      key: replacement.key,
    });
    expect([revoked.status, revoked.body.isActive]).toEqual([200, false]);
    expect((await gw.request('GET', '/api/auth/api-keys')).status).toBe(401);
    await expectAllRefused(replacement.id, replacement.key);
    // Deleting a revoked admin key never touches the guard.
    const deleted = await gw.request('DELETE', `/api/auth/api-keys/${adminId}`, { key: replacement.key });
    expect(deleted.status).toBe(204);
  });

  it('an expired admin does not count either', async () => {
    const { key } = replacement;
    const created = await gw.request('POST', '/api/auth/api-keys', {
      key,
      body: { name: 'short-lived admin', role: 'admin', expiresAt: inFuture(1500) },
    });
    expect(created.status).toBe(201);
    const shortLived = created.body as { id: string; apiKey: string };
    expect((await gw.request('POST', '/api/auth/validate', { key: shortLived.apiKey })).status).toBe(200);
    // Wait for the expiry through the API itself: the key turns 401.
    await waitFor(
      async () => (await gw.request('POST', '/api/auth/validate', { key: shortLived.apiKey })).status === 401,
      5000,
      100,
    );
    const listed = await read(shortLived.id, key);
    expect(listed).toMatchObject({ role: 'admin', isActive: true });
    await expectAllRefused(replacement.id, key);
  });
});
