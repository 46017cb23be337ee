/** POST /api/sessions: creation, body validation, roles, scope, proxy (admin only) and name uniqueness. */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import {
  embeddedOnly,
  OFFLINE_QUIRKS,
  sessionName,
  startTestGateway,
  type TestGateway,
} from '#tests/helpers/test-gateway.js';
import {
  expectError,
  expectNoSecrets,
  expectSessionShape,
  expectValidation,
  getSession,
  settledAudit,
  waitForAudit,
} from './sessions-support.js';

describe('POST /api/sessions', () => {
  let gw: TestGateway;
  let operator: string;
  let viewer: string;
  let scopedOperator: string;

  beforeAll(async () => {
    // No other test of this file starts a session, so its gateway also shows the session limit.
    gw = await startTestGateway({ BODY_SIZE_LIMIT: '4kb', MAX_CONCURRENT_SESSIONS: '2' });
    operator = (await gw.createKey({ name: 'operator', role: 'operator' })).key;
    viewer = (await gw.createKey({ name: 'viewer', role: 'viewer' })).key;
    const other = await gw.createSession();
    scopedOperator = (await gw.createKey({ name: 'scoped', role: 'operator', allowedSessions: [other.id] }))
      .key;
  });
  afterAll(async () => {
    await gw.close();
  });

  const create = (body: unknown, key?: string | null) =>
    gw.request('POST', '/api/sessions', { body, ...(key === undefined ? {} : { key }) });

  describe('success', () => {
    it('201 with the public session shape in status created, and audits session_created', async () => {
      const name = sessionName('create');
      const res = await create({ name }, operator);
      expect(res.status).toBe(201);
      expectSessionShape(res.body);
      expect(res.body).toMatchObject({
        name,
        status: 'created',
        phone: null,
        pushName: null,
        connectedAt: null,
        lastActive: null,
        lastError: null,
      });
      expect(res.body.id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
      expect(Number.isNaN(Date.parse(res.body.createdAt))).toBe(false);
      expect(res.body.updatedAt).toBe(res.body.createdAt);
      expect(await getSession(gw, res.body.id)).toEqual(res.body);

      const [audit] = await waitForAudit(gw, 'session_created', res.body.id);
      expect(audit).toMatchObject({ severity: 'info', sessionId: res.body.id, sessionName: name });
    });

    it('accepts every documented config key at its bounds and stores unknown config keys silently', async () => {
      for (const config of [
        { maxReconnectAttempts: 0, reconnectBaseDelay: 1000, autoRejectCalls: true },
        { maxReconnectAttempts: 20, reconnectBaseDelay: 300_000, autoRejectCalls: false },
        { maxReconnectAttempts: null },
        { somethingElse: { nested: 1 } },
        {},
      ]) {
        const res = await create({ name: sessionName('cfg'), config });
        expect(res.status).toBe(201);
        expectSessionShape(res.body);
      }
    });

    it('accepts names of 3 and 50 characters (letters, digits, hyphens)', async () => {
      const suffix = Math.random().toString(36).slice(2, 6);
      for (const name of [`A${suffix.slice(0, 2)}`, `Ab-9${'x'.repeat(42)}${suffix}`]) {
        const res = await create({ name });
        expect(res.status).toBe(201);
        expect(res.body.name).toBe(name);
      }
    });

    it('an admin may set proxyUrl/proxyType; they are stored but never returned', async () => {
      const proxyUrl = 'socks5://user:s3cret-pass@proxy.example:1080';
      const res = await create({ name: sessionName('proxy'), proxyUrl, proxyType: 'socks5' });
      expect(res.status).toBe(201);
      expectSessionShape(res.body);
      expect(res.text).not.toContain('s3cret-pass');
      const read = await gw.request('GET', `/api/sessions/${res.body.id}`);
      expect(read.text).not.toContain('s3cret-pass');
      const list = await gw.request('GET', `/api/sessions?name=${res.body.name}`);
      expect(list.body).toHaveLength(1);
      expectNoSecrets(list.body);
      expect(list.text).not.toContain('s3cret-pass');
    });
  });

  describe('400 invalid body', () => {
    it.each([
      ['unknown field', { name: 'valid-name', extra: 1 }, 'body'],
      ['missing name', {}, 'body.name'],
      ['name too short', { name: 'ab' }, 'body.name'],
      ['name too long', { name: 'a'.repeat(51) }, 'body.name'],
      ['name with a space', { name: 'bad name' }, 'body.name'],
      ['name with an underscore', { name: 'bad_name' }, 'body.name'],
      ['name with a slash', { name: 'bad/name' }, 'body.name'],
      ['name with a dot', { name: 'bad.name' }, 'body.name'],
      ['name as a number', { name: 12345 }, 'body.name'],
      ['name null', { name: null }, 'body.name'],
      ['config as a string', { name: 'valid-name', config: 'x' }, 'body.config'],
      ['config as an array', { name: 'valid-name', config: [] }, 'body.config'],
      [
        'maxReconnectAttempts as a string',
        { name: 'valid-name', config: { maxReconnectAttempts: '3' } },
        'body.config.maxReconnectAttempts',
      ],
      [
        'maxReconnectAttempts 21',
        { name: 'valid-name', config: { maxReconnectAttempts: 21 } },
        'body.config.maxReconnectAttempts',
      ],
      [
        'maxReconnectAttempts -1',
        { name: 'valid-name', config: { maxReconnectAttempts: -1 } },
        'body.config.maxReconnectAttempts',
      ],
      [
        'maxReconnectAttempts 1.5',
        { name: 'valid-name', config: { maxReconnectAttempts: 1.5 } },
        'body.config.maxReconnectAttempts',
      ],
      [
        'reconnectBaseDelay 999',
        { name: 'valid-name', config: { reconnectBaseDelay: 999 } },
        'body.config.reconnectBaseDelay',
      ],
      [
        'reconnectBaseDelay 300001',
        { name: 'valid-name', config: { reconnectBaseDelay: 300_001 } },
        'body.config.reconnectBaseDelay',
      ],
      [
        'reconnectBaseDelay as a string',
        { name: 'valid-name', config: { reconnectBaseDelay: '5000' } },
        'body.config.reconnectBaseDelay',
      ],
      [
        'autoRejectCalls as a string',
        { name: 'valid-name', config: { autoRejectCalls: 'true' } },
        'body.config.autoRejectCalls',
      ],
      ['proxyUrl not a URL', { name: 'valid-name', proxyUrl: 'not a url' }, 'body.proxyUrl'],
      [
        'proxyUrl with an ftp scheme',
        { name: 'valid-name', proxyUrl: 'ftp://proxy.example:21' },
        'body.proxyUrl',
      ],
      ['proxyType unknown', { name: 'valid-name', proxyType: 'socks6' }, 'body.proxyType'],
    ])('%s', async (_label, body, path) => {
      const res = await create(body);
      expectValidation(res, path);
      const list = await gw.request('GET', '/api/sessions?name=valid-name');
      expect(list.body).toEqual([]);
    });

    it('a body that is not a JSON object', async () => {
      expectValidation(await create([]), 'body');
      expectError(
        await gw.request('POST', '/api/sessions', {
          rawBody: '{"name": "broken',
          headers: { 'content-type': 'application/json' },
        }),
        400,
        'INVALID_JSON',
      );
    });

    embeddedOnly(it, OFFLINE_QUIRKS.jsonStringBody)('a body that is a JSON string', async () => {
      expectValidation(await create('just-a-string'), 'body');
    });

    it('415 for a body that is not JSON; 413 for a body over BODY_SIZE_LIMIT (4 kB here)', async () => {
      const name = sessionName('media');
      const plain = await gw.request('POST', '/api/sessions', {
        rawBody: JSON.stringify({ name }),
        headers: { 'content-type': 'text/plain' },
      });
      expectError(plain, 415, 'UNSUPPORTED_MEDIA_TYPE');
      const big = await create({ name, config: { padding: 'x'.repeat(5000) } });
      expectError(big, 413, 'PAYLOAD_TOO_LARGE');
      expect((await gw.request('GET', `/api/sessions?name=${name}`)).body).toEqual([]);
    });

    it('NUL characters in the body', async () => {
      expectError(await create({ name: 'nul\u0000name' }), 400, 'VALIDATION_FAILED');
    });
  });

  describe('401', () => {
    it('missing, unknown, and malformed keys are refused and audited', async () => {
      const name = sessionName('unauth');
      expectError(await create({ name }, null), 401, 'UNAUTHORIZED');
      expectError(await create({ name }, 'wg_definitely-not-a-key'), 401, 'UNAUTHORIZED');
      expectError(
        await gw.request('POST', '/api/sessions', {
          key: null,
          body: { name },
          headers: { authorization: 'Bearer wg_definitely-not-a-key' },
        }),
        401,
        'UNAUTHORIZED',
      );
      expectError(
        await gw.request('POST', '/api/sessions', {
          key: null,
          body: { name },
          headers: { authorization: `Basic ${operator}` },
        }),
        401,
        'UNAUTHORIZED',
      );
      const list = await gw.request('GET', `/api/sessions?name=${name}`);
      expect(list.body).toEqual([]);
    });

    it('a valid key is also accepted as Authorization: Bearer', async () => {
      const res = await gw.request('POST', '/api/sessions', {
        key: null,
        body: { name: sessionName('bearer') },
        headers: { authorization: `Bearer ${operator}` },
      });
      expect(res.status).toBe(201);
    });

    it('auth is checked before the body: no key and a bad body is 401, not 400', async () => {
      expectError(await create({ name: 'x' }, null), 401, 'UNAUTHORIZED');
    });
  });

  describe('403', () => {
    it('a viewer key may not create', async () => {
      const name = sessionName('viewer');
      expectError(await create({ name }, viewer), 403, 'FORBIDDEN_ROLE');
      expect((await gw.request('GET', `/api/sessions?name=${name}`)).body).toEqual([]);
    });

    it('a session-scoped key may not create, whatever its role', async () => {
      const scopedAdmin = (
        await gw.createKey({
          name: 'scoped-admin',
          role: 'admin',
          allowedSessions: [(await gw.createSession()).id],
        })
      ).key;
      for (const key of [scopedOperator, scopedAdmin]) {
        expectError(await create({ name: sessionName('scoped') }, key), 403, 'FORBIDDEN_SCOPED_KEY');
      }
    });

    it('an operator may not set proxyUrl (admin only); nothing is created', async () => {
      const name = sessionName('opproxy');
      const res = await create({ name, proxyUrl: 'http://proxy.example:3128' }, operator);
      expectError(res, 403, 'FORBIDDEN_ROLE');
      expect((await gw.request('GET', `/api/sessions?name=${name}`)).body).toEqual([]);
    });

    it('a key whose allowedIps exclude 127.0.0.1 is refused, one that includes it works', async () => {
      const elsewhere = (
        await gw.createKey({ name: 'ip-elsewhere', role: 'admin', allowedIps: ['10.0.0.0/8'] })
      ).key;
      expectError(await create({ name: sessionName('ip') }, elsewhere), 403, 'FORBIDDEN_IP');
      const local = (await gw.createKey({ name: 'ip-local', role: 'operator', allowedIps: ['127.0.0.0/8'] }))
        .key;
      expect((await create({ name: sessionName('ip') }, local)).status).toBe(201);
    });
  });

  describe('409', () => {
    it('a duplicate name is SESSION_NAME_EXISTS and does not audit a second creation', async () => {
      const name = sessionName('dup');
      const first = await create({ name });
      expect(first.status).toBe(201);
      const second = await create({ name, config: { reconnectBaseDelay: 2000 } }, operator);
      expectError(second, 409, 'SESSION_NAME_EXISTS');
      const list = await gw.request('GET', `/api/sessions?name=${name}`);
      expect(list.body).toHaveLength(1);
      expect(list.body[0].id).toBe(first.body.id);
      expect(await settledAudit(gw, 'session_created', first.body.id)).toHaveLength(1);
    });

    it('two concurrent creates of one name: exactly one 201 and one 409', async () => {
      const name = sessionName('race');
      const results = await Promise.all([create({ name }), create({ name })]);
      expect(results.map((r) => r.status).sort()).toEqual([201, 409]);
    });
  });

  embeddedOnly(
    describe,
    'one host runs every session; with several (aws) each host guards its own limit, a unit test of the host shows it',
  )('400 beyond MAX_CONCURRENT_SESSIONS', () => {
    it("refuses a third running session with OpenWA's words, and starts it once one stopped", async () => {
      const ids: string[] = [];
      for (const name of ['limit-a', 'limit-b', 'limit-c'])
        ids.push((await create({ name: sessionName(name) })).body.id);
      const start = (id: string) => gw.request('POST', `/api/sessions/${id}/start`);
      expect((await start(ids[0] ?? '')).status).toBe(200);
      expect((await start(ids[1] ?? '')).status).toBe(200);
      const refused = await start(ids[2] ?? '');
      expectError(refused, 400, 'SESSION_LIMIT_REACHED');
      expect(refused.body.message).toBe('Maximum concurrent sessions reached (2)');
      expect((await getSession(gw, ids[2] ?? '')).status).toBe('created');
      expect((await gw.request('POST', `/api/sessions/${ids[0]}/stop`)).status).toBe(200);
      expect((await start(ids[2] ?? '')).status).toBe(200);
    });
  });
});
