/**
 * What the stack decides for every route alike, as the OpenAPI document says it: a route that takes a body needs
 * one (none, white space only or JSON `null` is 400, where a PUT used to read it as an update of nothing); an empty
 * query value is 400 on every parameter (`?offset=` as `?limit=`); a known path asked with another method is 405
 * with `Allow`, an unknown path 404.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { type RequestOptions, startTestGateway, type TestGateway } from '#tests/helpers/test-gateway.js';
import { createSession } from './sessions-support.js';
import { createRule, createWebhook, HOOK_HOST } from './webhooks-support.js';

describe('bad input the stack refuses for every route', () => {
  let gw: TestGateway;
  /** One PUT route of each resource that has them, with an existing record. */
  const puts: Record<string, string> = {};

  beforeAll(async () => {
    gw = await startTestGateway({ SSRF_ALLOWED_HOSTS: HOOK_HOST });
    const sessionId = (await createSession(gw)).id;
    const base = `/api/sessions/${sessionId}`;
    const template = await gw.request('POST', `${base}/templates`, {
      body: { name: 'greeting', body: 'Hi' },
    });
    puts.templates = `${base}/templates/${template.body.id}`;
    puts.rules = `${base}/automation-rules/${(await createRule(gw, sessionId)).id}`;
    puts.webhooks = `${base}/webhooks/${(await createWebhook(gw, sessionId)).id}`;
    puts.keys = `/api/auth/api-keys/${(await gw.createKey({ name: 'put-target', role: 'viewer' })).id}`;
  });
  afterAll(async () => {
    await gw.close();
  });

  const json = (rawBody: string): RequestOptions => ({
    rawBody,
    headers: { 'content-type': 'application/json' },
  });

  it.each(['templates', 'rules', 'webhooks', 'keys'])(
    'a PUT of %s without a body (none, white space, null) is 400, and changes nothing',
    async (resource) => {
      const path = puts[resource] as string;
      const before = (await gw.request('GET', path)).body;
      for (const options of [{}, json(''), json(' \n\t '), json('null')]) {
        const res = await gw.request('PUT', path, options);
        expect([res.status, res.body.code, res.body.details]).toEqual([
          400,
          'VALIDATION_FAILED',
          [{ path: 'body', message: 'required: a JSON object' }],
        ]);
      }
      expect((await gw.request('GET', path)).body).toEqual(before);
      // An empty object is a body: the update of nothing it always was.
      expect((await gw.request('PUT', path, { body: {} })).status).toBe(200);
    },
  );

  it('a POST that takes a body and gets none is 400 the same way', async () => {
    const res = await gw.request('POST', '/api/auth/api-keys', json('null'));
    expect([res.status, res.body.details]).toEqual([
      400,
      [{ path: 'body', message: 'required: a JSON object' }],
    ]);
  });

  it.each([
    ['/api/sessions?offset=', 'query.offset'],
    ['/api/sessions?limit=', 'query.limit'],
    ['/api/sessions?limit=5&offset', 'query.offset'],
    ['/api/webhooks?offset=', 'query.offset'],
    ['/api/audit?sessionId=', 'query.sessionId'],
    ['/api/audit?offset=&limit=', 'query.offset'],
  ])('an empty query value (%s) is 400, whatever its type', async (path, field) => {
    const res = await gw.request('GET', path);
    expect([res.status, res.body.code]).toEqual([400, 'VALIDATION_FAILED']);
    expect(res.body.details).toContainEqual({ path: field, message: 'must not be empty' });
  });

  it('a query value that is there is read as before, and a route that reads no query ignores it', async () => {
    expect((await gw.request('GET', '/api/sessions?offset=0&limit=1')).body).toHaveLength(1);
    expect((await gw.request('GET', '/api/health?probe=&x', { key: null })).status).toBe(200);
  });

  it.each([
    ['PATCH', '/api/sessions', 'POST, GET'],
    ['DELETE', '/api/audit', 'GET'],
    ['POST', '/api/health', 'GET'],
    ['PUT', '/api/auth/validate', 'POST'],
    ['GET', '/api/auth/validate', 'POST'],
    ['POST', '/api/openapi.json', 'GET'],
    ['PATCH', `/api/sessions/00000000-0000-4000-8000-000000000000/`, 'GET, DELETE'],
    ['GET', '/api/sessions/00000000-0000-4000-8000-000000000000/start', 'POST'],
  ])('%s %s is 405 with Allow: %s', async (method, path, allow) => {
    const res = await gw.request(method, path);
    expect(res.status).toBe(405);
    expect(res.headers.get('allow')).toBe(allow);
    expect(res.body).toEqual({
      statusCode: 405,
      error: 'Method Not Allowed',
      // serverless offline drops a trailing slash from the path before the function sees it.
      message: expect.stringContaining(`Method ${method} is not allowed on ${path.replace(/\/$/, '')}`),
      code: 'METHOD_NOT_ALLOWED',
      details: { allowed: allow.split(', ') },
    });
  });

  it('a 405 comes before authentication, as a 404 does', async () => {
    const res = await gw.request('DELETE', '/api/sessions', { key: null });
    expect([res.status, res.headers.get('allow')]).toEqual([405, 'POST, GET']);
  });
});
