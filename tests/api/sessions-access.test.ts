/**
 * Authentication and authorisation of every /api/sessions/{id} route: missing or bad keys (401, also as
 * `Authorization: Bearer`), viewer keys on operator routes, session-scoped keys on another session, IP
 * allowlists (403), and path validation (400 not a uuid, 404 unknown). A refused request changes nothing.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { embeddedOnly, startTestGateway, type TestGateway } from '#tests/helpers/test-gateway.js';
import {
  createSession,
  expectError,
  expectSessionShape,
  expectValidation,
  getSession,
  linkedSession,
  SESSION_ID_ROUTES,
  type SessionBody,
  UNKNOWN_ID,
  waitForAudit,
  waitForSession,
} from './sessions-support.js';

const OPERATOR_ROUTES = SESSION_ID_ROUTES.filter(([method, suffix]) => !(method === 'GET' && suffix === ''));
const label = ([method, suffix]: readonly [string, string]) => `${method} /api/sessions/{id}${suffix}`;

describe('access to /api/sessions/{id} routes', () => {
  let gw: TestGateway;
  let viewer: string;
  let operator: string;
  let scopedToA: string;
  let ipElsewhere: string;
  let a: SessionBody;
  let b: SessionBody;

  beforeAll(async () => {
    gw = await startTestGateway();
    a = await createSession(gw);
    b = await createSession(gw);
    viewer = (await gw.createKey({ name: 'viewer', role: 'viewer' })).key;
    operator = (await gw.createKey({ name: 'operator', role: 'operator' })).key;
    scopedToA = (await gw.createKey({ name: 'scoped-a', role: 'operator', allowedSessions: [a.id] })).key;
    ipElsewhere = (
      await gw.createKey({ name: 'ip-elsewhere', role: 'admin', allowedIps: ['10.0.0.1', '172.16.0.0/12'] })
    ).key;
  });
  afterAll(async () => {
    await gw.close();
  });

  /** Every refusal below must leave A and B exactly as they were. */
  async function expectUntouched(): Promise<void> {
    expect(await getSession(gw, a.id)).toEqual(a);
    expect(await getSession(gw, b.id)).toEqual(b);
  }

  describe.each(SESSION_ID_ROUTES.map((route) => [label(route), route] as const))(
    '%s',
    (_name, [method, suffix]) => {
      const path = (id: string) => `/api/sessions/${id}${suffix}`;

      it('401 without a key, with an unknown key, or with an unknown Bearer token', async () => {
        expectError(await gw.request(method, path(b.id), { key: null }), 401, 'UNAUTHORIZED');
        expectError(await gw.request(method, path(b.id), { key: 'wg_0000' }), 401, 'UNAUTHORIZED');
        expectError(
          await gw.request(method, path(b.id), { key: null, headers: { authorization: 'Bearer wg_0000' } }),
          401,
          'UNAUTHORIZED',
        );
        // Authentication comes before path validation.
        expectError(await gw.request(method, path('not-a-uuid'), { key: null }), 401, 'UNAUTHORIZED');
        await expectUntouched();
      });

      it('403 for a key scoped to another session, also for an unknown id', async () => {
        expectError(await gw.request(method, path(b.id), { key: scopedToA }), 403, 'FORBIDDEN_SESSION');
        expectError(await gw.request(method, path(UNKNOWN_ID), { key: scopedToA }), 403, 'FORBIDDEN_SESSION');
        await expectUntouched();
      });

      it('403 for a key whose allowedIps do not include 127.0.0.1', async () => {
        expectError(await gw.request(method, path(b.id), { key: ipElsewhere }), 403, 'FORBIDDEN_IP');
        await expectUntouched();
      });

      it('400 for an id that is not a uuid; 404 for an unknown uuid', async () => {
        expectValidation(await gw.request(method, path('not-a-uuid')), 'path.id');
        expectValidation(await gw.request(method, path(b.name)), 'path.id');
        expectError(await gw.request(method, path(UNKNOWN_ID)), 404, 'NOT_FOUND');
        await expectUntouched();
      });
    },
  );

  it.each(OPERATOR_ROUTES.map((route) => [label(route), route] as const))(
    'a viewer key is refused on %s (403)',
    async (_name, [method, suffix]) => {
      expectError(
        await gw.request(method, `/api/sessions/${b.id}${suffix}`, { key: viewer }),
        403,
        'FORBIDDEN_ROLE',
      );
      await expectUntouched();
    },
  );

  it('a viewer key may read a session', async () => {
    const res = await gw.request('GET', `/api/sessions/${b.id}`, { key: viewer });
    expect(res.status).toBe(200);
    expect(res.body).toEqual(b);
  });

  it('refusals are audited as api_key_auth_failed with the session id', async () => {
    const target = await createSession(gw);
    expect((await gw.request('POST', `/api/sessions/${target.id}/start`, { key: viewer })).status).toBe(403);
    const [entry] = await waitForAudit(gw, 'api_key_auth_failed', target.id);
    expect(entry).toMatchObject({ severity: 'warn', sessionId: target.id });
    expect(entry?.apiKeyId).toEqual(expect.any(String));
  });

  it('a key scoped to a session drives that session through every operator route', async () => {
    const session = await createSession(gw);
    const key = (await gw.createKey({ name: 'scoped-own', role: 'operator', allowedSessions: [session.id] }))
      .key;
    const call = (method: string, suffix: string) =>
      gw.request(method, `/api/sessions/${session.id}${suffix}`, { key });

    const started = await call('POST', '/start');
    expect(started.status).toBe(200);
    expectSessionShape(started.body);
    await waitForSession(gw, session.id, 'qr_ready');
    expect((await call('GET', '/qr')).status).toBe(200);
    gw.network.scanQr(session.id, { phone: '15550007777' });
    await waitForSession(gw, session.id, 'ready');
    expect((await call('POST', '/force-kill')).body.status).toBe('disconnected');
    expect((await call('POST', '/start')).status).toBe(200);
    await waitForSession(gw, session.id, 'ready');
    expect((await call('POST', '/stop')).body.status).toBe('disconnected');
    expect((await call('POST', '/start')).status).toBe(200);
    await waitForSession(gw, session.id, 'ready');
    expect((await call('POST', '/logout')).body).toMatchObject({ status: 'disconnected', phone: null });
    expect((await call('DELETE', '')).status).toBe(204);
  });

  it('an operator key works through Authorization: Bearer on an operator route', async () => {
    const session = await linkedSession(gw);
    const res = await gw.request('POST', `/api/sessions/${session.id}/stop`, {
      key: null,
      headers: { authorization: `Bearer ${operator}` },
    });
    expect(res.status).toBe(200);
    expect(res.body.status).toBe('disconnected');
  });

  embeddedOnly(
    it,
    'a revocation reaches other Lambda instances within API_KEY_CACHE_TTL_MS (their key cache; docs/configuration.md), not at once',
  )('a revoked key is refused (401) on a route it could use before', async () => {
    const created = await gw.createKey({ name: 'to-revoke', role: 'operator' });
    expect((await gw.request('GET', `/api/sessions/${b.id}`, { key: created.key })).status).toBe(200);
    expect((await gw.request('POST', `/api/auth/api-keys/${created.id}/revoke`)).status).toBe(200);
    expectError(await gw.request('GET', `/api/sessions/${b.id}`, { key: created.key }), 401, 'UNAUTHORIZED');
    expectError(
      await gw.request('POST', `/api/sessions/${b.id}/start`, { key: created.key }),
      401,
      'UNAUTHORIZED',
    );
    await expectUntouched();
  });
});
