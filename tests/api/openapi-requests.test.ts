/**
 * The OpenAPI document refuses what the gateway refuses: for each rule the server enforces on a request (exactly one
 * media source, `data` with its `mimetype`, exactly one of templateId and templateName, a webhook secret of 16
 * characters, unique events, an absolute http(s) URL without credentials, operators by filter field, a search `q`
 * with a letter or digit, no NUL, no empty query value), a request the served document's schemas refuse (ajv 2020-12
 * with its formats, as a generated client validates) and the gateway answers 400 VALIDATION_FAILED; and requests the
 * document accepts, which the gateway does not refuse as invalid (it may still refuse them for the session's state).
 * The one rule no schema can state, an API key's future `expiresAt`, is said in words and refused at run time.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import {
  compileRequestCheck,
  type OpenApiDocument,
  type RequestCheck,
} from '#tests/helpers/openapi-conformance.js';
import { startTestGateway, type TestGateway } from '#tests/helpers/test-gateway.js';
import { createSession } from './sessions-support.js';
import { createRule, createWebhook, HOOK_HOST, HOOK_URL } from './webhooks-support.js';

const CHAT = '15550001111@c.us';
const PNG = 'iVBORw0KGgo=';
const UUID = '10000000-0000-4000-8000-000000000000';
const SECRET = 'a-secret-of-16ch';

type Case = [label: string, body: Record<string, unknown>];

describe('the OpenAPI document and the gateway refuse the same requests', () => {
  let gw: TestGateway;
  let check: RequestCheck;
  let sessionId: string;
  let webhookPath: string;

  beforeAll(async () => {
    gw = await startTestGateway({ SSRF_ALLOWED_HOSTS: HOOK_HOST });
    const served = await gw.request<OpenApiDocument>('GET', '/api/openapi.json', { key: null });
    check = compileRequestCheck(served.body);
    sessionId = (await createSession(gw)).id;
    webhookPath = `/api/sessions/${sessionId}/webhooks/${(await createWebhook(gw, sessionId)).id}`;
    await createRule(gw, sessionId);
  });
  afterAll(async () => {
    await gw.close();
  });

  const route = (template: string) => template.replace('{sessionId}', sessionId);

  /** The document refuses `body`, and the gateway answers 400 VALIDATION_FAILED to it. */
  async function refusedByBoth(method: string, template: string, body: unknown) {
    expect(check.body(method, template, body)).not.toEqual([]);
    const res = await gw.request(method, route(template), { body });
    expect([res.status, res.body.code]).toEqual([400, 'VALIDATION_FAILED']);
  }

  /** The document accepts `body`, and the gateway does not refuse it as invalid. */
  async function acceptedByBoth(method: string, template: string, body: unknown, path = route(template)) {
    expect(check.body(method, template, body)).toEqual([]);
    const res = await gw.request(method, path, { body });
    expect([res.status, res.body?.code]).not.toEqual([400, 'VALIDATION_FAILED']);
    return res;
  }

  const SEND_IMAGE = '/api/sessions/{sessionId}/messages/send-image';
  const SEND_BULK = '/api/sessions/{sessionId}/messages/send-bulk';
  const SEND_TEMPLATE = '/api/sessions/{sessionId}/messages/send-template';
  const WEBHOOKS = '/api/sessions/{sessionId}/webhooks';
  const RULES = '/api/sessions/{sessionId}/automation-rules';
  const image = (content: Record<string, unknown>) => ({
    messages: [{ chatId: CHAT, type: 'image', content }],
  });

  it.each<Case>([
    [
      'both url and data',
      { chatId: CHAT, url: 'https://files.example/a.png', data: PNG, mimetype: 'image/png' },
    ],
    ['neither url nor data', { chatId: CHAT, caption: 'hi' }],
    ['data without its mimetype', { chatId: CHAT, data: PNG }],
    ['data that is not base64', { chatId: CHAT, data: 'not base64!', mimetype: 'image/png' }],
    ['an ftp url', { chatId: CHAT, url: 'ftp://files.example/a.png' }],
  ])('a media send with %s', async (_label, body) => {
    await refusedByBoth('POST', SEND_IMAGE, body);
  });

  it.each<Case>([
    ['both url and data', image({ url: 'https://files.example/a.png', data: PNG, mimetype: 'image/png' })],
    ['neither url nor data', image({ caption: 'hi' })],
    ['data without its mimetype', image({ data: PNG })],
  ])('a bulk media item with %s', async (_label, body) => {
    await refusedByBoth('POST', SEND_BULK, body);
  });

  it.each<Case>([
    ['both templateId and templateName', { chatId: CHAT, templateId: UUID, templateName: 'greeting' }],
    ['neither templateId nor templateName', { chatId: CHAT, variables: {} }],
  ])('a send-template with %s', async (_label, body) => {
    await refusedByBoth('POST', SEND_TEMPLATE, body);
  });

  it.each<Case>([
    ['a secret of 15 characters', { url: HOOK_URL, secret: SECRET.slice(1) }],
    ['a repeated event', { url: HOOK_URL, events: ['message.ack', 'message.ack'] }],
    ['an ftp url', { url: 'ftp://hooks.example.com/x' }],
    ['a relative url', { url: '/waygate' }],
    ['a url without slashes after the scheme', { url: `https:${HOOK_HOST}/x` }],
    ['a url without a host', { url: 'https://' }],
    ['a url with credentials', { url: `https://user:pass@${HOOK_HOST}/x` }],
    ['a NUL in the url', { url: `${HOOK_URL}/\u0000` }],
    ['a header value with a NUL', { url: HOOK_URL, headers: { 'X-A': 'a\u0000' } }],
    ['a body filter with the operator is', filters({ field: 'body', operator: 'is', value: 'hi' })],
    ['a flag filter with isNot', filters({ field: 'isGroup', operator: 'isNot', value: true })],
    ['a flag filter with a string value', filters({ field: 'fromMe', operator: 'is', value: 'true' })],
    ['a type filter with an unknown type', filters({ field: 'type', operator: 'is', value: 'gif' })],
    ['a chatId filter that is no id', filters({ field: 'chatId', operator: 'is', value: 'not an id' })],
  ])('a webhook with %s', async (_label, body) => {
    await refusedByBoth('POST', WEBHOOKS, body);
  });

  it('an automation rule whose condition takes an operator its field does not', async () => {
    const conditions = { conditions: [{ field: 'sender', operator: 'contains', value: CHAT }] };
    await refusedByBoth('POST', RULES, { name: 'r', replyText: 'x', conditions });
  });

  it('a template whose name or body holds a NUL', async () => {
    const path = '/api/sessions/{sessionId}/templates';
    await refusedByBoth('POST', path, { name: 'a\u0000b', body: 'x' });
    await refusedByBoth('POST', path, { name: 'ok', body: 'x\u0000' });
  });

  it('accepts what it documents: each shape of each union, and the bounds themselves', async () => {
    await acceptedByBoth('POST', SEND_IMAGE, { chatId: CHAT, url: 'https://files.example/a.png' });
    await acceptedByBoth('POST', SEND_IMAGE, { chatId: CHAT, data: PNG, mimetype: 'image/png' });
    await acceptedByBoth('POST', SEND_BULK, image({ url: 'https://files.example/a.png', caption: 'hi' }));
    await acceptedByBoth('POST', SEND_TEMPLATE, { chatId: CHAT, templateName: 'greeting' });
    await acceptedByBoth('POST', SEND_TEMPLATE, { chatId: CHAT, templateId: UUID });
    const webhook = await acceptedByBoth('POST', WEBHOOKS, {
      url: `HTTPS://${HOOK_HOST}/x?a=1#f`,
      secret: SECRET,
      events: ['message.ack', 'message.received'],
      filters: {
        conditions: [
          { field: 'isGroup', operator: 'is', value: false },
          { field: 'type', operator: 'isNot', value: ['image', 'voice'] },
          { field: 'body', operator: 'contains', value: 'order', caseSensitive: true },
        ],
      },
    });
    expect(webhook.status).toBe(201);
    const emoji = await acceptedByBoth('PUT', `${WEBHOOKS}/{id}`, { secret: '🔑'.repeat(16) }, webhookPath);
    expect(emoji.status).toBe(200);
  });

  it('documents the future expiresAt in words, and refuses a past one at run time', async () => {
    const doc = await gw.request<OpenApiDocument>('GET', '/api/openapi.json', { key: null });
    expect(JSON.stringify(doc.body.paths['/api/auth/api-keys'])).toMatch(/must be in the future/);
    const past = { name: 'expired-key', expiresAt: '2001-01-01T00:00:00Z' };
    expect(check.body('POST', '/api/auth/api-keys', past)).toEqual([]);
    const res = await gw.request('POST', '/api/auth/api-keys', { body: past });
    expect([res.status, res.body.code, res.body.message]).toEqual([
      400,
      'VALIDATION_FAILED',
      'expiresAt must be in the future',
    ]);
  });

  it.each([
    ['a q without a letter or digit', 'search', { q: '?!…' }],
    ['a q of emoji only', 'search', { q: '🎉🎉' }],
    ['a q with a NUL', 'search', { q: 'a\u0000' }],
    ['an empty offset', 'search', { q: 'hello', offset: '' }],
    ['an empty limit', 'search', { q: 'hello', limit: '' }],
    ['an empty chatId', 'messages', { chatId: '' }],
    ['an empty audit sessionId', 'audit', { sessionId: '' }],
  ])('a query with %s', async (_label, which, query) => {
    const template =
      which === 'audit'
        ? '/api/audit'
        : `/api/sessions/{sessionId}/messages${which === 'search' ? '/search' : ''}`;
    expect(check.query('GET', template, query)).not.toEqual([]);
    const res = await gw.request('GET', `${route(template)}?${new URLSearchParams(query)}`);
    expect([res.status, res.body.code]).toEqual([400, 'VALIDATION_FAILED']);
  });

  it.each<Record<string, string>>([{ q: 'héllo' }, { q: '中文' }, { q: '#42', limit: '5', offset: '0' }])(
    'a query the document accepts: %j',
    async (query) => {
      const template = '/api/sessions/{sessionId}/messages/search';
      expect(check.query('GET', template, query)).toEqual([]);
      const res = await gw.request('GET', `${route(template)}?${new URLSearchParams(query)}`);
      expect(res.status).toBe(200);
    },
  );
});

function filters(condition: Record<string, unknown>): Record<string, unknown> {
  return { url: HOOK_URL, filters: { conditions: [condition] } };
}
