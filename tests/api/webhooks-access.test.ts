/**
 * Who may call the webhook routes: keys (401), roles (operator; delivery failures admin with an unscoped key), the
 * session scope of a key (403 FORBIDDEN_SESSION on another session, lists filtered to its sessions); and the two
 * lists across sessions, GET /api/webhooks and GET /api/webhooks/delivery-failures, with their paging.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { aDeliveryFailure } from '#tests/helpers/builders.js';
import { withGatewayDataStore } from '#tests/helpers/gateway-data-store.js';
import { startTestGateway, type TestGateway } from '#tests/helpers/test-gateway.js';
import {
  createSession,
  expectError,
  expectValidation,
  type SessionBody,
  UNKNOWN_ID,
} from './sessions-support.js';
import {
  closedPortUrl,
  createWebhook,
  expectNoWebhookSecrets,
  HOOK_HOST,
  idsOf,
  type WebhookBody,
} from './webhooks-support.js';

/** `[method, path under /api/sessions/{sessionId}/webhooks]`; `{id}` is the session's webhook. */
const SESSION_ROUTES = [
  ['POST', ''],
  ['GET', ''],
  ['GET', '/{id}'],
  ['PUT', '/{id}'],
  ['DELETE', '/{id}'],
  ['POST', '/{id}/test'],
] as const;
const bodyOf = (method: string, suffix: string) =>
  method === 'POST' && suffix === '' ? { url: `https://${HOOK_HOST}/x` } : method === 'PUT' ? {} : undefined;

describe('access to the webhook routes', () => {
  let gw: TestGateway;
  let a: SessionBody;
  let b: SessionBody;
  let hookA: WebhookBody;
  let hookB: WebhookBody;
  let viewer: string;
  let operator: string;
  let scopedToA: string;
  let scopedAdmin: string;

  beforeAll(async () => {
    gw = await startTestGateway({ SSRF_ALLOWED_HOSTS: `${HOOK_HOST},127.0.0.1` });
    [a, b] = [await createSession(gw), await createSession(gw)];
    // A closed port: a test delivery by a key that may send one fails fast, whatever it proves.
    hookA = await createWebhook(gw, a.id, { url: await closedPortUrl(), secret: 'secret-of-session-a-hook' });
    await new Promise((resolve) => setTimeout(resolve, 5)); // newest first needs distinct creation times
    hookB = await createWebhook(gw, b.id, { url: await closedPortUrl(), headers: { 'X-B': 'b' } });
    viewer = (await gw.createKey({ name: 'viewer', role: 'viewer' })).key;
    operator = (await gw.createKey({ name: 'operator', role: 'operator' })).key;
    scopedToA = (await gw.createKey({ name: 'scoped-a', role: 'operator', allowedSessions: [a.id] })).key;
    scopedAdmin = (await gw.createKey({ name: 'admin-a', role: 'admin', allowedSessions: [a.id] })).key;
  });
  afterAll(async () => {
    await gw.close();
  });

  /** What every refusal must leave as it was. */
  async function expectUntouched(): Promise<void> {
    expect((await gw.request('GET', `/api/sessions/${b.id}/webhooks`)).body).toEqual([hookB]);
  }

  describe.each(
    SESSION_ROUTES.map(([m, s]) => [`${m} /api/sessions/{sessionId}/webhooks${s}`, m, s] as const),
  )('%s', (_label, method, suffix) => {
    const path = (sessionId: string, id: string) =>
      `/api/sessions/${sessionId}/webhooks${suffix.replace('{id}', id)}`;
    const call = (sessionId: string, id: string, key: string | null) =>
      gw.request(method, path(sessionId, id), { key, body: bodyOf(method, suffix) });

    it('401 without a key or with an unknown key', async () => {
      expectError(await call(b.id, hookB.id, null), 401, 'UNAUTHORIZED');
      expectError(await call(b.id, hookB.id, 'wg_0000'), 401, 'UNAUTHORIZED');
      await expectUntouched();
    });

    it('403 FORBIDDEN_ROLE for a viewer key', async () => {
      expectError(await call(b.id, hookB.id, viewer), 403, 'FORBIDDEN_ROLE');
      await expectUntouched();
    });

    it('403 FORBIDDEN_SESSION for a key scoped to another session, also for an unknown session', async () => {
      expectError(await call(b.id, hookB.id, scopedToA), 403, 'FORBIDDEN_SESSION');
      expectError(await call(UNKNOWN_ID, hookB.id, scopedToA), 403, 'FORBIDDEN_SESSION');
      await expectUntouched();
    });
  });

  it('an operator key scoped to a session manages that session’s webhooks through every route', async () => {
    const own = `/api/sessions/${a.id}/webhooks`;
    const created = await createWebhook(gw, a.id, {}, scopedToA);
    expect(idsOf(await gw.request('GET', own, { key: scopedToA }))).toEqual([created.id, hookA.id]);
    expect((await gw.request('GET', `${own}/${created.id}`, { key: scopedToA })).body).toEqual(created);
    const put = await gw.request('PUT', `${own}/${created.id}`, { key: scopedToA, body: { active: false } });
    expect(put.body).toMatchObject({ active: false });
    const test = await gw.request('POST', `${own}/${hookA.id}/test`, { key: scopedToA });
    expect(test.status).toBe(200);
    expect(test.body).toEqual({ success: false, error: expect.any(String) });
    expect((await gw.request('DELETE', `${own}/${created.id}`, { key: scopedToA })).status).toBe(204);
  });

  describe('GET /api/webhooks', () => {
    it('answers every webhook newest first to an unscoped key, never with secret or headers', async () => {
      for (const key of [gw.adminKey, operator]) {
        const res = await gw.request<WebhookBody[]>('GET', '/api/webhooks', { key });
        expect(res.status).toBe(200);
        expect(idsOf(res)).toEqual([hookB.id, hookA.id]);
        expect(res.body).toEqual([hookB, hookA]);
        expectNoWebhookSecrets(res.body);
        expect(res.text).not.toMatch(/secret-of-session-a-hook|X-B/);
      }
    });

    it('is filtered to the sessions of a scoped key', async () => {
      expect(idsOf(await gw.request('GET', '/api/webhooks', { key: scopedToA }))).toEqual([hookA.id]);
      expect(idsOf(await gw.request('GET', '/api/webhooks', { key: scopedAdmin }))).toEqual([hookA.id]);
    });

    it('pages with limit (1–1000) and offset', async () => {
      expect(idsOf(await gw.request('GET', '/api/webhooks?limit=1'))).toEqual([hookB.id]);
      expect(idsOf(await gw.request('GET', '/api/webhooks?limit=1&offset=1'))).toEqual([hookA.id]);
      expect(idsOf(await gw.request('GET', '/api/webhooks?offset=2'))).toEqual([]);
      expectValidation(await gw.request('GET', '/api/webhooks?limit=0'), 'query.limit');
      expectValidation(await gw.request('GET', '/api/webhooks?limit=1001'), 'query.limit');
      expectValidation(await gw.request('GET', '/api/webhooks?offset=-1'), 'query.offset');
      expectValidation(await gw.request('GET', '/api/webhooks?sessionId=x'), 'query');
    });

    it('401 without a key; 403 FORBIDDEN_ROLE for a viewer', async () => {
      expectError(await gw.request('GET', '/api/webhooks', { key: null }), 401, 'UNAUTHORIZED');
      expectError(await gw.request('GET', '/api/webhooks', { key: viewer }), 403, 'FORBIDDEN_ROLE');
    });
  });

  describe('GET /api/webhooks/delivery-failures', () => {
    const url = '/api/webhooks/delivery-failures';
    const now = Date.now();
    const older = (seconds: number) => new Date(now - seconds * 1000).toISOString();
    let seeded: ReturnType<typeof aDeliveryFailure>[];

    beforeAll(async () => {
      // Failures are written by deliveries; these stand for three abandoned ones (one never attempted).
      seeded = [
        aDeliveryFailure({ sessionId: a.id, webhookId: hookA.id, createdAt: older(30) }),
        aDeliveryFailure({ sessionId: b.id, webhookId: hookB.id, createdAt: older(20), attempts: 0 }),
        aDeliveryFailure({
          sessionId: a.id,
          webhookId: hookA.id,
          createdAt: older(10),
          lastStatusCode: null,
        }),
      ];
      await withGatewayDataStore(gw, async (data) => {
        for (const failure of seeded) await data.deliveryFailures.insert(failure);
      });
    });

    it('answers the records most recent first, as stored (admin)', async () => {
      const res = await gw.request('GET', url);
      expect(res.status).toBe(200);
      expect(res.body).toEqual([seeded[2], seeded[1], seeded[0]]);
    });

    it('filters by sessionId and pages with limit and offset', async () => {
      expect(idsOf(await gw.request('GET', `${url}?sessionId=${a.id}`))).toEqual([
        seeded[2]?.id,
        seeded[0]?.id,
      ]);
      expect(idsOf(await gw.request('GET', `${url}?sessionId=${UNKNOWN_ID}`))).toEqual([]);
      expect(idsOf(await gw.request('GET', `${url}?limit=1&offset=1`))).toEqual([seeded[1]?.id]);
      expectValidation(await gw.request('GET', `${url}?sessionId=nope`), 'query.sessionId');
      expectValidation(await gw.request('GET', `${url}?limit=1001`), 'query.limit');
    });

    it('is for admin keys without a session scope (403 otherwise; 401 without a key)', async () => {
      expectError(await gw.request('GET', url, { key: operator }), 403, 'FORBIDDEN_ROLE');
      expectError(await gw.request('GET', url, { key: viewer }), 403, 'FORBIDDEN_ROLE');
      expectError(await gw.request('GET', url, { key: scopedAdmin }), 403, 'FORBIDDEN_SCOPED_KEY');
      expectError(await gw.request('GET', url, { key: null }), 401, 'UNAUTHORIZED');
    });
  });
});
