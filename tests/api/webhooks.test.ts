/**
 * /api/sessions/{sessionId}/webhooks: registration (defaults, every field, validation, the SSRF guard, the
 * per-session cap), reads, partial updates, deletion, their audits, and the cascade of a session delete. A webhook's
 * secret and custom headers are write-only: no answer carries them.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { withGatewayDataStore } from '#tests/helpers/gateway-data-store.js';
import { startTestGateway, type TestGateway } from '#tests/helpers/test-gateway.js';
import {
  createSession,
  expectError,
  expectValidation,
  type SessionBody,
  UNKNOWN_ID,
  waitForAudit,
} from './sessions-support.js';
import {
  createRule,
  createWebhook,
  expectNoWebhookSecrets,
  expectWebhookShape,
  HOOK_HOST,
  HOOK_URL,
  idsOf,
  type WebhookBody,
} from './webhooks-support.js';

const SECRET = 'a-secret-of-at-least-16-characters';
const FILTERS = { conditions: [{ field: 'body', operator: 'contains', value: 'order' }] };

describe('webhooks of a session', () => {
  let gw: TestGateway;
  let session: SessionBody;

  beforeAll(async () => {
    gw = await startTestGateway({ SSRF_ALLOWED_HOSTS: HOOK_HOST, WEBHOOK_MAX_PER_SESSION: '3' });
    session = await createSession(gw);
  });
  afterAll(async () => {
    await gw.close();
  });

  const base = (sessionId = session.id) => `/api/sessions/${sessionId}/webhooks`;
  const post = (body: unknown, sessionId = session.id) => gw.request('POST', base(sessionId), { body });
  const get = (id: string, sessionId = session.id) =>
    gw.request<WebhookBody>('GET', `${base(sessionId)}/${id}`);
  const put = (id: string, body: unknown) => gw.request<WebhookBody>('PUT', `${base()}/${id}`, { body });

  it('POST registers a webhook with the defaults (201); secret and headers are never answered', async () => {
    const res = await post({ url: HOOK_URL, secret: SECRET, headers: { 'X-Token': 'abc' } });
    expect(res.status).toBe(201);
    expectWebhookShape(res.body);
    expect(res.body).toMatchObject({
      sessionId: session.id,
      url: HOOK_URL,
      events: ['message.received'],
      filters: null,
      active: true,
      retryCount: 3,
      lastTriggeredAt: null,
    });
    expect(res.body.updatedAt).toBe(res.body.createdAt);
    expect(res.text).not.toContain(SECRET);
    const read = await get(res.body.id);
    expect(read.status).toBe(200);
    expect(read.body).toEqual(res.body);
    const list = await gw.request('GET', base());
    expectNoWebhookSecrets(list.body);
    expect(list.text).not.toContain(SECRET);
    expect(list.text).not.toContain('X-Token');
    expect((await gw.request('DELETE', `${base()}/${res.body.id}`)).status).toBe(204);
  });

  it('POST keeps every field it is given and audits webhook_created without path or secret', async () => {
    const own = await createSession(gw);
    const webhook = await createWebhook(gw, own.id, {
      url: `${HOOK_URL}/orders?token=query-secret`,
      events: ['message.received', 'session.status', '*'],
      filters: FILTERS,
      retryCount: 5,
      secret: SECRET,
    });
    expect(webhook).toMatchObject({ events: ['message.received', 'session.status', '*'], filters: FILTERS });
    expect(webhook.retryCount).toBe(5);
    const [entry] = await waitForAudit(gw, 'webhook_created', own.id);
    expect(entry).toMatchObject({
      severity: 'info',
      sessionName: own.name,
      metadata: { webhookId: webhook.id, origin: `https://${HOOK_HOST}` },
    });
    expect(JSON.stringify(entry)).not.toMatch(/query-secret|a-secret-of/);
  });

  it('GET lists the session’s webhooks newest first, and only its own', async () => {
    const [mine, other] = [await createSession(gw), await createSession(gw)];
    const first = await createWebhook(gw, mine.id);
    await new Promise((resolve) => setTimeout(resolve, 5));
    const second = await createWebhook(gw, mine.id, { url: `${HOOK_URL}/2` });
    await createWebhook(gw, other.id);
    const res = await gw.request('GET', base(mine.id));
    expect(res.status).toBe(200);
    expect(idsOf(res)).toEqual([second.id, first.id]);
    const empty = await createSession(gw);
    expect((await gw.request('GET', base(empty.id))).body).toEqual([]);
  });

  it('GET one: 404 for an unknown id and for a webhook of another session; 400 for an id that is no uuid', async () => {
    const other = await createSession(gw);
    const foreign = await createWebhook(gw, other.id);
    expectError(await get(UNKNOWN_ID), 404, 'NOT_FOUND');
    expectError(await get(foreign.id), 404, 'NOT_FOUND');
    expectError(await put(foreign.id, { active: false }), 404, 'NOT_FOUND');
    expectError(await gw.request('DELETE', `${base()}/${foreign.id}`), 404, 'NOT_FOUND');
    expect((await get(foreign.id, other.id)).body).toEqual(foreign);
    expectValidation(await get('not-a-uuid'), 'path.id');
  });

  it('404 for an unknown session on every route; 400 for a session id that is no uuid', async () => {
    const unknown = `/api/sessions/${UNKNOWN_ID}/webhooks`;
    expectError(await gw.request('POST', unknown, { body: { url: HOOK_URL } }), 404, 'NOT_FOUND');
    expectError(await gw.request('GET', unknown), 404, 'NOT_FOUND');
    for (const [method, suffix] of [
      ['GET', ''],
      ['PUT', ''],
      ['DELETE', ''],
      ['POST', '/test'],
    ] as const) {
      const body = method === 'PUT' ? { body: { active: false } } : {};
      expectError(await gw.request(method, `${unknown}/${UNKNOWN_ID}${suffix}`, body), 404, 'NOT_FOUND');
    }
    expectValidation(await gw.request('GET', '/api/sessions/nope/webhooks'), 'path.sessionId');
  });

  it('PUT changes only the given fields; null clears secret and filters, and is refused elsewhere', async () => {
    const webhook = await createWebhook(gw, session.id, { secret: SECRET, filters: FILTERS, retryCount: 2 });
    const off = await put(webhook.id, { active: false, events: ['message.sent'] });
    expect(off.status).toBe(200);
    expectWebhookShape(off.body);
    expect(off.body).toEqual({
      ...webhook,
      active: false,
      events: ['message.sent'],
      updatedAt: expect.any(String),
    });
    expect(Date.parse(off.body.updatedAt)).toBeGreaterThanOrEqual(Date.parse(webhook.updatedAt));
    const cleared = await put(webhook.id, {
      filters: { conditions: [] },
      secret: '',
      headers: { 'X-A': '1' },
    });
    expect(cleared.body).toMatchObject({ filters: null, active: false, retryCount: 2 });
    expect((await put(webhook.id, { filters: FILTERS, secret: null })).body.filters).toEqual(FILTERS);
    for (const field of ['url', 'events', 'headers', 'active', 'retryCount']) {
      expectValidation(await put(webhook.id, { [field]: null }), `body.${field}`);
    }
    expectValidation(await put(webhook.id, { lastTriggeredAt: null }), 'body');
    expect((await put(webhook.id, {})).status).toBe(200);
    expectError(await put(UNKNOWN_ID, { active: true }), 404, 'NOT_FOUND');
  });

  it('PUT vets a changed URL (400 URL_NOT_ALLOWED, nothing changed) and stores an allowed one', async () => {
    const webhook = await createWebhook(gw, session.id);
    expectError(await put(webhook.id, { url: 'http://10.0.0.1/hook' }), 400, 'URL_NOT_ALLOWED');
    expect((await get(webhook.id)).body).toEqual(webhook);
    const moved = await put(webhook.id, { url: `${HOOK_URL}/moved` });
    expect(moved.body.url).toBe(`${HOOK_URL}/moved`);
    expect((await put(webhook.id, { url: `${HOOK_URL}/moved`, active: false })).body.active).toBe(false);
    expect((await gw.request('DELETE', `${base()}/${webhook.id}`)).status).toBe(204);
  });

  it('DELETE answers 204, audits webhook_deleted, and the webhook is gone', async () => {
    const own = await createSession(gw);
    const webhook = await createWebhook(gw, own.id);
    const res = await gw.request('DELETE', `${base(own.id)}/${webhook.id}`);
    expect(res.status).toBe(204);
    expect(res.text).toBe('');
    expectError(await get(webhook.id, own.id), 404, 'NOT_FOUND');
    expectError(await gw.request('DELETE', `${base(own.id)}/${webhook.id}`), 404, 'NOT_FOUND');
    const [entry] = await waitForAudit(gw, 'webhook_deleted', own.id);
    expect(entry).toMatchObject({ sessionName: own.name, metadata: { webhookId: webhook.id } });
  });

  it.each([
    ['no url', { url: undefined }, 'body.url'],
    ['an ftp url', { url: 'ftp://hooks.example.com/x' }, 'body.url'],
    ['a url without a scheme', { url: 'hooks.example.com/x' }, 'body.url'],
    ['credentials in the url', { url: `https://user:pass@${HOOK_HOST}/x` }, 'body.url'],
    ['a url over 2048 characters', { url: `${HOOK_URL}/${'a'.repeat(2048)}` }, 'body.url'],
    ['no events', { events: [] }, 'body.events'],
    ['an unknown event', { events: ['message.nope'] }, 'body.events.0'],
    ['a repeated event', { events: ['message.sent', 'message.sent'] }, 'body.events'],
    ['a short secret', { secret: 'too-short' }, 'body.secret'],
    ['a header name with a space', { headers: { 'X Bad': '1' } }, 'body.headers.X Bad'],
    ['a header value with a line break', { headers: { 'X-A': 'a\r\nX-B: b' } }, 'body.headers.X-A'],
    ['a header value beyond Latin-1', { headers: { 'X-A': 'snow ☃' } }, 'body.headers.X-A'],
    ['one header name twice', { headers: { 'X-A': '1', 'x-a': '2' } }, 'body.headers.x-a'],
    [
      '51 headers',
      { headers: Object.fromEntries(Array.from({ length: 51 }, (_, i) => [`X-${i}`, 'v'])) },
      'body.headers',
    ],
    ['retryCount 6', { retryCount: 6 }, 'body.retryCount'],
    ['retryCount -1', { retryCount: -1 }, 'body.retryCount'],
    [
      'an unknown filter field',
      { filters: { conditions: [{ field: 'x', operator: 'is', value: 'y' }] } },
      'body.filters.conditions.0.field',
    ],
    [
      'a filter operator the field lacks',
      { filters: { conditions: [{ field: 'sender', operator: 'contains', value: '1555000@c.us' }] } },
      'body.filters.conditions.0.operator',
    ],
    ['active on create', { active: false }, 'body'],
  ])('POST with %s is 400 VALIDATION_FAILED, and nothing is stored', async (_name, body, path) => {
    const own = await createSession(gw);
    expectValidation(await post({ url: HOOK_URL, ...body }, own.id), path);
    expect((await gw.request('GET', base(own.id))).body).toEqual([]);
  });

  it.each([
    'http://10.0.0.1/hook',
    'http://127.0.0.1:8080/hook',
    'http://2130706433/hook',
    'http://[::1]/hook',
    'http://169.254.169.254/latest/meta-data/',
    'http://192.168.1.20/hook',
    'http://100.64.0.1/hook',
    'https://[::ffff:10.0.0.1]/hook',
    'https://no-such-host.invalid/hook',
  ])('POST %s is 400 URL_NOT_ALLOWED, and nothing is stored', async (url) => {
    const own = await createSession(gw);
    const body = expectError(await post({ url }, own.id), 400, 'URL_NOT_ALLOWED');
    expect(body.message).not.toContain(url);
    expect((await gw.request('GET', base(own.id))).body).toEqual([]);
  });

  it('POST accepts a public address the guard checks itself (no allow-list entry)', async () => {
    const res = await post({ url: 'https://8.8.8.8/hook' }, (await createSession(gw)).id);
    expect(res.status).toBe(201);
  });

  it('a session holds at most WEBHOOK_MAX_PER_SESSION webhooks (400 WEBHOOK_LIMIT); a delete frees a place', async () => {
    const [full, other] = [await createSession(gw), await createSession(gw)];
    const created = [];
    for (let i = 0; i < 3; i++) created.push(await createWebhook(gw, full.id, { url: `${HOOK_URL}/${i}` }));
    expectError(await post({ url: HOOK_URL }, full.id), 400, 'WEBHOOK_LIMIT');
    expect(idsOf(await gw.request('GET', base(full.id)))).toHaveLength(3);
    await createWebhook(gw, other.id);
    expect((await gw.request('DELETE', `${base(full.id)}/${created[0]?.id}`)).status).toBe(204);
    await createWebhook(gw, full.id);
  });

  it('deleting the session deletes its webhooks and automation rules', async () => {
    const doomed = await createSession(gw);
    const webhook = await createWebhook(gw, doomed.id);
    await createRule(gw, doomed.id);
    expect((await gw.request('DELETE', `/api/sessions/${doomed.id}`)).status).toBe(204);
    expect(idsOf(await gw.request('GET', '/api/webhooks'))).not.toContain(webhook.id);
    expectError(await gw.request('GET', base(doomed.id)), 404, 'NOT_FOUND');
    const left = await withGatewayDataStore(gw, async (data) => ({
      webhooks: await data.webhooks.listBySession(doomed.id),
      rules: await data.automationRules.listBySession(doomed.id),
    }));
    expect(left).toEqual({ webhooks: [], rules: [] });
  });
});
