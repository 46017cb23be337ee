/**
 * Hostile and malformed input on every layer: JSON, media type, unknown fields, wrong types, NUL bytes, percent
 * encoding, nesting depth, bodies on body-less routes, unknown routes. Every refusal is a clean JSON error without
 * internals, and writes nothing. Body size limits: bad-input-body-size.test.ts.
 */
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import Database from 'better-sqlite3';
import {
  type ApiResponse,
  embeddedOnly,
  OFFLINE_QUIRKS,
  type RequestOptions,
  startTestGateway,
  type TestGateway,
} from '#tests/helpers/test-gateway.js';

const errorBodies: { where: string; status: number; text: string }[] = [];
const MISSING_ID = '00000000-0000-4000-8000-000000000000';

/** Every error response of this file goes through here and is checked for leaked internals at the end. */
async function send(
  gw: TestGateway,
  method: string,
  path: string,
  options: RequestOptions = {},
): Promise<ApiResponse<any>> {
  const res = await gw.request(method, path, options);
  if (res.status >= 400) errorBodies.push({ where: `${method} ${path}`, status: res.status, text: res.text });
  return res;
}

describe('bad input (default limits)', () => {
  let gw: TestGateway;
  let sessionId: string;
  /** What a refused request must not change. */
  const snapshot = async () => ({
    sessions: (await gw.request('GET', '/api/sessions')).body,
    keys: ((await gw.request('GET', '/api/auth/api-keys')).body as Record<string, unknown>[]).map(
      ({ usageCount: _count, lastUsedAt: _at, ...rest }) => rest,
    ),
  });
  const json = (rawBody: string, contentType = 'application/json'): RequestOptions => ({
    rawBody,
    headers: { 'content-type': contentType },
  });

  beforeAll(async () => {
    gw = await startTestGateway();
    sessionId = (await gw.createSession('bad-input-base')).id;
  });
  afterAll(async () => {
    await gw.close();
  });

  it.each([
    ['a truncated object', '{"name":'],
    ['a bare word', 'hello'],
    ['single quotes', "{'name':'abc'}"],
    ['trailing garbage', '{"name":"abc"} extra'],
    ['a trailing comma', '{"name":"abc",}'],
  ])('malformed JSON (%s) is 400 INVALID_JSON', async (_label, rawBody) => {
    const before = await snapshot();
    for (const path of ['/api/sessions', '/api/auth/api-keys']) {
      const res = await send(gw, 'POST', path, json(rawBody));
      expect([path, res.status, res.body.code]).toEqual([path, 400, 'INVALID_JSON']);
    }
    expect(await snapshot()).toEqual(before);
  });

  it.each([
    'text/plain',
    'application/x-www-form-urlencoded',
    'multipart/form-data; boundary=x',
    'application/xml',
  ])('a body sent as %s is 415 UNSUPPORTED_MEDIA_TYPE', async (contentType) => {
    const before = await snapshot();
    const res = await send(gw, 'POST', '/api/sessions', json('{"name":"media-type"}', contentType));
    expect([res.status, res.body.code]).toEqual([415, 'UNSUPPORTED_MEDIA_TYPE']);
    expect(await snapshot()).toEqual(before);
  });

  it('JSON media types with parameters or a +json suffix are accepted', async () => {
    const plain = await send(
      gw,
      'POST',
      '/api/sessions',
      json('{"name":"charset-ok"}', 'application/json; charset=utf-8'),
    );
    expect(plain.status).toBe(201);
    const suffixed = await send(
      gw,
      'POST',
      '/api/sessions',
      json('{"name":"suffix-ok"}', 'application/merge-patch+json'),
    );
    expect(suffixed.status).toBe(201);
  });

  it('unknown body fields are 400 with details naming them', async () => {
    const before = await snapshot();
    const calls: [string, string, unknown][] = [
      ['POST', '/api/sessions', { name: 'unknown-field', colour: 'blue' }],
      ['POST', '/api/auth/api-keys', { name: 'unknown field', permissions: ['all'] }],
      ['PUT', `/api/auth/api-keys/${MISSING_ID}`, { nickname: 'x' }],
    ];
    for (const [method, path, body] of calls) {
      const res = await send(gw, method, path, { body });
      expect([path, res.status, res.body.code]).toEqual([path, 400, 'VALIDATION_FAILED']);
      expect(res.body.details).toEqual([
        { path: 'body', message: expect.stringMatching(/Unrecognized key/) },
      ]);
    }
    expect(await snapshot()).toEqual(before);
  });

  const wrongTypes = async (body: unknown, field: string) => {
    const before = await snapshot();
    const res = await send(gw, 'POST', '/api/sessions', { body });
    expect([res.status, res.body.code]).toEqual([400, 'VALIDATION_FAILED']);
    expect(res.body.details.map((d: { path: string }) => d.path)).toEqual(
      expect.arrayContaining([expect.stringMatching(new RegExp(`^${field.replace('.', '\\.')}`))]),
    );
    expect(await snapshot()).toEqual(before);
  };

  it.each([
    ['a number name', { name: 12345 }, 'body.name'],
    ['a null name', { name: null }, 'body.name'],
    ['an array name', { name: ['a-b-c'] }, 'body.name'],
    ['a string config', { name: 'typed-config', config: 'fast' }, 'body.config'],
    [
      'a string reconnect delay',
      { name: 'typed-delay', config: { reconnectBaseDelay: '5000' } },
      'body.config',
    ],
    ['a body that is an array', [{ name: 'in-array' }], 'body'],
    ['a body that is a number', 42, 'body'],
  ])('wrong types (%s) are 400 with the failing path', async (_label, body, field) => {
    await wrongTypes(body, field);
  });

  embeddedOnly(it, OFFLINE_QUIRKS.jsonStringBody)(
    'wrong types (a body that is a string) are 400 with the failing path',
    async () => {
      await wrongTypes('just-a-name', 'body');
    },
  );

  it('a NUL character anywhere in a body (value, nested value or key) is 400', async () => {
    const before = await snapshot();
    const bodies: [string, unknown][] = [
      ['/api/auth/api-keys', { name: 'nul\u0000name' }],
      ['/api/sessions', { name: 'nul-config', config: { note: ['fine', 'not\u0000fine'] } }],
      ['/api/sessions', { name: 'nul-key', config: { 'k\u0000': 1 } }],
    ];
    for (const [path, body] of bodies) {
      const res = await send(gw, 'POST', path, { body });
      expect([path, res.status, res.body.message]).toEqual([
        path,
        400,
        'Request body must not contain NUL characters',
      ]);
    }
    expect(await snapshot()).toEqual(before);
  });

  it('bodies nested absurdly deep are 400, not a crash', async () => {
    const before = await snapshot();
    const deep = (depth: number) => `${'['.repeat(depth)}${']'.repeat(depth)}`;
    for (const rawBody of [
      deep(200_000),
      `{"name":"deep-config","config":{"x":${deep(5_000)}}}`,
      `{"name":"deep-object","config":${'{"a":'.repeat(10_000)}1${'}'.repeat(10_000)}}`,
    ]) {
      const res = await send(gw, 'POST', '/api/sessions', json(rawBody));
      expect([res.status, res.body.code]).toEqual([400, 'VALIDATION_FAILED']);
      expect(res.body.message).toMatch(/nested/);
    }
    // Ordinary nesting is fine.
    const ok = await send(gw, 'POST', '/api/sessions', {
      body: { name: 'nested-ok', config: { a: { b: { c: [[1]] } } } },
    });
    expect(ok.status).toBe(201);
    expect((await snapshot()).sessions).toHaveLength(before.sessions.length + 1);
  });

  it.each([
    ['a path parameter', `/api/sessions/abc%00def`],
    ['a key id', '/api/auth/api-keys/%00'],
    ['a static path', '/api/sessions%00'],
    ['a public path', '/api/health%00'],
    ['an unknown path', '/api/nothing%00here'],
    ['a query value', '/api/sessions?name=a%00b'],
    ['a query name', '/api/sessions?%00=1'],
    ['an audit filter', '/api/audit?action=%00'],
    ['a public route query', '/api/health?probe=%00'],
  ])('%%00 in %s is 400', async (_label, path) => {
    const res = await send(gw, 'GET', path);
    expect([res.status, res.body.code]).toEqual([400, 'VALIDATION_FAILED']);
    expect(res.body.message).toMatch(/NUL/);
  });

  it('%00 in the path of a write is refused before anything runs', async () => {
    const before = await snapshot();
    expect((await send(gw, 'POST', `/api/sessions/${sessionId}%00/start`)).status).toBe(400);
    expect((await send(gw, 'DELETE', `/api/auth/api-keys/%00`)).status).toBe(400);
    expect(await snapshot()).toEqual(before);
  });

  embeddedOnly(it, OFFLINE_QUIRKS.percentEncoding).each([
    '/api/sessions/%E0%A4%A',
    '/api/sessions/%ZZ',
    '/api/sessions/%C0%80',
    '/api/auth/api-keys/%',
    '/api/auth/api-keys/%E0%A4%A/revoke',
  ])('bad percent-encoding in a path parameter (%s) is 400', async (path) => {
    const method = path.endsWith('/revoke') ? 'POST' : 'GET';
    const res = await send(gw, method, path);
    expect([res.status, res.body.code]).toEqual([400, 'VALIDATION_FAILED']);
    expect(res.body.message).toMatch(/percent-encoding/);
  });

  it('a body on a body-less route is 400 and the action does not run', async () => {
    const res = await send(gw, 'POST', `/api/sessions/${sessionId}/start`, { body: { x: 1 } });
    expect([res.status, res.body.code]).toEqual([400, 'VALIDATION_FAILED']);
    expect(res.body.details).toEqual([{ path: 'body', message: expect.stringMatching(/Unrecognized key/) }]);
    expect((await gw.request('GET', `/api/sessions/${sessionId}`)).body.status).toBe('created');
    const stop = await send(gw, 'POST', `/api/sessions/${sessionId}/stop`, { body: { force: true } });
    expect(stop.status).toBe(400);
    expect((await send(gw, 'POST', `/api/sessions/${sessionId}/logout`, json('[]'))).status).toBe(400);
  });

  it.each([
    ['GET', '/api/nope'],
    ['GET', '/api'],
    ['GET', '/'],
    ['GET', '/nope'],
    ['GET', `/api/sessions/${MISSING_ID}/nope`],
    ['PATCH', '/api/nope'],
    ['POST', '/api/sessions/x/nope/deeper'],
    ['DELETE', '/nope'],
    ['PUT', '/api/health/nope'],
  ])(
    'unknown route %s %s is 404 ROUTE_NOT_FOUND (a known path with another method: bad-input-routing)',
    async (method, path) => {
      const res = await send(gw, method, path);
      expect(res.status).toBe(404);
      expect(res.body).toEqual({
        statusCode: 404,
        error: 'Not Found',
        message: expect.stringContaining('not found'),
        code: 'ROUTE_NOT_FOUND',
      });
    },
  );

  embeddedOnly(
    it,
    'breaks the store by renaming tables in the SQLite files of gw.dataDir; the DynamoDB adapters map their failures to ' +
      'UnavailableError in tests/aws/dynamodb-stores.test.ts',
  )('a failing store is a clean 503 (and authentication fails closed), never a driver error', async () => {
    // A key never used before is not in the key cache, so its lookup must reach the broken store.
    const { key: unusedKey } = await gw.createKey({ name: 'not-yet-used', role: 'viewer' });
    const db = new Database(path.join(gw.dataDir, 'main.sqlite'));
    try {
      db.exec('ALTER TABLE audit_logs RENAME TO audit_logs_away');
      const audit = await send(gw, 'GET', '/api/audit?severity=error');
      expect(audit.body).toEqual({
        statusCode: 503,
        error: 'Service Unavailable',
        message: 'Audit log store is unavailable',
        code: 'DEPENDENCY_UNAVAILABLE',
        retryable: true,
      });
      db.exec('ALTER TABLE audit_logs_away RENAME TO audit_logs');
      db.exec('ALTER TABLE api_keys RENAME TO api_keys_away');
      const denied = await send(gw, 'GET', '/api/sessions', { key: unusedKey });
      expect([denied.status, denied.body.code]).toEqual([503, 'DEPENDENCY_UNAVAILABLE']);
    } finally {
      db.exec('ALTER TABLE api_keys_away RENAME TO api_keys');
      db.close();
    }
    expect((await send(gw, 'GET', '/api/audit?limit=1')).status).toBe(200);
  });
});

describe('error bodies', () => {
  it('never carry stack traces, file paths or internal error names', () => {
    expect(errorBodies.length).toBeGreaterThan(50);
    for (const { where, status, text } of errorBodies) {
      const body = JSON.parse(text) as Record<string, unknown>;
      expect([where, body.statusCode]).toEqual([where, status]);
      expect([where, typeof body.code, typeof body.message]).toEqual([where, 'string', 'string']);
      for (const leak of [
        /\bat \S+ \(/,
        /\bat (file|node):/,
        /\.(ts|js|mjs):\d+/,
        /\/work\//,
        /node_modules/,
      ]) {
        expect([where, leak.test(text)]).toEqual([where, false]);
      }
      for (const internal of ['stack', 'SyntaxError', 'RangeError', 'ZodError', 'SQLITE']) {
        expect([where, text.includes(internal)]).toEqual([where, false]);
      }
    }
  });
});
