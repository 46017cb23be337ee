/**
 * GET/PATCH /api/sessions/{id}/config and /proxy: resolved config values, merge with `null` clearing a key, the
 * masked proxy view (never the URL or its credentials), roles (PATCH proxy: unscoped admin), scope, 404/400, and
 * that a change applies on the session's next start, not to the running engine.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { startTestGateway, type TestGateway } from '#tests/helpers/test-gateway.js';
import {
  createSession,
  expectError,
  expectValidation,
  linkedSession,
  startTo,
  UNKNOWN_ID,
  waitForSession,
} from './sessions-support.js';

const DEFAULTS = { autoRejectCalls: false, maxReconnectAttempts: null, reconnectBaseDelay: 5000 };
const SECRET = 's3cret-pass';
const PROXY_URL = `socks5://user:${SECRET}@proxy.example:1080`;

describe('session config and proxy routes', () => {
  let gw: TestGateway;
  let operator: string;
  let viewer: string;
  let scopedAdmin: string;
  let scopedViewer: string;
  let chatLimited: string;
  let own: string;
  let other: string;

  beforeAll(async () => {
    gw = await startTestGateway();
    own = (await createSession(gw)).id;
    other = (await createSession(gw)).id;
    operator = (await gw.createKey({ name: 'operator', role: 'operator' })).key;
    viewer = (await gw.createKey({ name: 'viewer', role: 'viewer' })).key;
    scopedAdmin = (await gw.createKey({ name: 'sadmin', role: 'admin', allowedSessions: [own] })).key;
    scopedViewer = (await gw.createKey({ name: 'sviewer', role: 'viewer', allowedSessions: [own] })).key;
    chatLimited = (await gw.createKey({ name: 'chats', role: 'admin', allowedChats: ['+15557770001'] })).key;
  });
  afterAll(async () => {
    await gw.close();
  });

  const config = (id: string, key?: string | null) =>
    gw.request('GET', `/api/sessions/${id}/config`, key === undefined ? {} : { key });
  const patchConfig = (id: string, body: unknown, key?: string | null) =>
    gw.request('PATCH', `/api/sessions/${id}/config`, { body, ...(key === undefined ? {} : { key }) });
  const proxy = (id: string, key?: string | null) =>
    gw.request('GET', `/api/sessions/${id}/proxy`, key === undefined ? {} : { key });
  const patchProxy = (id: string, body: unknown, key?: string | null) =>
    gw.request('PATCH', `/api/sessions/${id}/proxy`, { body, ...(key === undefined ? {} : { key }) });

  describe('config', () => {
    it('a new session answers the defaults; a viewer may read it', async () => {
      const res = await config(own, viewer);
      expect(res.status).toBe(200);
      expect(res.body).toEqual(DEFAULTS);
    });

    it('answers the values given at creation', async () => {
      const { id } = await createSession(gw, {
        config: { maxReconnectAttempts: 3, reconnectBaseDelay: 2000, autoRejectCalls: true, custom: 1 },
      });
      expect((await config(id)).body).toEqual({
        autoRejectCalls: true,
        maxReconnectAttempts: 3,
        reconnectBaseDelay: 2000,
      });
    });

    it('PATCH merges the given keys, keeps the others, and null clears a key back to its default', async () => {
      const { id } = await createSession(gw, { config: { autoRejectCalls: true, custom: { kept: true } } });
      const first = await patchConfig(id, { maxReconnectAttempts: 0, reconnectBaseDelay: 1000 }, operator);
      expect(first.status).toBe(200);
      expect(first.body).toEqual({
        autoRejectCalls: true,
        maxReconnectAttempts: 0,
        reconnectBaseDelay: 1000,
      });
      expect((await config(id)).body).toEqual(first.body);

      const cleared = await patchConfig(id, { maxReconnectAttempts: null, autoRejectCalls: null }, operator);
      expect(cleared.body).toEqual({ ...DEFAULTS, reconnectBaseDelay: 1000 });
      expect((await patchConfig(id, {}, operator)).body).toEqual(cleared.body);
      expect((await config(id)).body).toEqual(cleared.body);
    });

    it('PATCH changes updatedAt and nothing the session response shows besides', async () => {
      const before = (await gw.request('GET', `/api/sessions/${own}`)).body as Record<string, unknown>;
      await new Promise((resolve) => setTimeout(resolve, 5));
      await patchConfig(own, { autoRejectCalls: false });
      const after = (await gw.request('GET', `/api/sessions/${own}`)).body as Record<string, unknown>;
      expect(after.updatedAt).not.toBe(before.updatedAt);
      expect({ ...after, updatedAt: null }).toEqual({ ...before, updatedAt: null });
    });

    it.each([
      ['maxReconnectAttempts 21', { maxReconnectAttempts: 21 }, 'body.maxReconnectAttempts'],
      ['maxReconnectAttempts -1', { maxReconnectAttempts: -1 }, 'body.maxReconnectAttempts'],
      ['maxReconnectAttempts 1.5', { maxReconnectAttempts: 1.5 }, 'body.maxReconnectAttempts'],
      ['reconnectBaseDelay 999', { reconnectBaseDelay: 999 }, 'body.reconnectBaseDelay'],
      ['reconnectBaseDelay 300001', { reconnectBaseDelay: 300_001 }, 'body.reconnectBaseDelay'],
      ['autoRejectCalls as a string', { autoRejectCalls: 'yes' }, 'body.autoRejectCalls'],
      ['an unknown key', { somethingElse: 1 }, 'body'],
    ])('PATCH 400 for %s, naming the key; nothing changes', async (_label, body, path) => {
      const before = (await config(own)).body;
      expectValidation(await patchConfig(own, body), path);
      expect((await config(own)).body).toEqual(before);
    });

    it('roles: a viewer may not PATCH (403); a scoped viewer reads its own session only', async () => {
      expectError(await patchConfig(own, { autoRejectCalls: true }, viewer), 403, 'FORBIDDEN_ROLE');
      expect((await config(own, scopedViewer)).status).toBe(200);
      expectError(await config(other, scopedViewer), 403, 'FORBIDDEN_SESSION');
      expect((await patchConfig(own, { autoRejectCalls: false }, scopedAdmin)).status).toBe(200);
      expectError(await patchConfig(other, {}, scopedAdmin), 403, 'FORBIDDEN_SESSION');
    });

    it('401 without a key, 404 for an unknown session, 400 for an id that is no uuid', async () => {
      expectError(await config(own, null), 401, 'UNAUTHORIZED');
      expectError(await config(UNKNOWN_ID), 404, 'NOT_FOUND');
      expectError(await patchConfig(UNKNOWN_ID, { autoRejectCalls: true }), 404, 'NOT_FOUND');
      expectValidation(await config('nope'), 'path.id');
      expectValidation(await patchConfig('nope', {}), 'path.id');
    });

    it('applies on the next start: the running engine keeps its config, a restart uses the new one', async () => {
      const session = await linkedSession(gw, { config: { reconnectBaseDelay: 1000 } });
      await patchConfig(session.id, { maxReconnectAttempts: 0 });
      gw.network.dropConnection(session.id);
      await waitForSession(gw, session.id, 'disconnected');
      // Started with unlimited attempts, the engine still reconnects.
      await waitForSession(gw, session.id, 'ready', () => true, 3000);

      expect((await gw.request('POST', `/api/sessions/${session.id}/stop`)).status).toBe(200);
      await startTo(gw, session.id, 'ready');
      gw.network.dropConnection(session.id);
      const failed = await waitForSession(gw, session.id, 'failed');
      expect(failed.lastError).toMatch(/exhausted/i);
    });
  });

  describe('proxy', () => {
    it('no proxy: disabled', async () => {
      expect((await proxy(own, viewer)).body).toEqual({
        enabled: false,
        proxyType: null,
        proxyHost: null,
        hasCredentials: false,
      });
    });

    it('a proxy set at creation reads masked: type and host:port, never the URL or its credentials', async () => {
      const { id } = await createSession(gw, { proxyUrl: PROXY_URL, proxyType: 'socks5' });
      const res = await proxy(id, viewer);
      expect(res.status).toBe(200);
      expect(res.body).toEqual({
        enabled: true,
        proxyType: 'socks5',
        proxyHost: 'proxy.example:1080',
        hasCredentials: true,
      });
      expect(res.text).not.toContain(SECRET);
      expect(res.text).not.toContain('user');
    });

    it('PATCH (admin) sets, replaces and removes the proxy; the answer is masked; the default port is named', async () => {
      const { id } = await createSession(gw);
      const set = await patchProxy(id, { proxyUrl: 'http://10.1.2.3' });
      expect(set.status).toBe(200);
      expect(set.body).toEqual({
        enabled: true,
        proxyType: 'http',
        proxyHost: '10.1.2.3:80',
        hasCredentials: false,
      });
      const replaced = await patchProxy(id, { proxyUrl: `https://op:${SECRET}@[::1]:8443` });
      expect(replaced.body).toEqual({
        enabled: true,
        proxyType: 'https',
        proxyHost: '[::1]:8443',
        hasCredentials: true,
      });
      expect(replaced.text).not.toContain(SECRET);
      expect((await proxy(id)).body).toEqual(replaced.body);
      const removed = await patchProxy(id, { proxyUrl: null });
      expect(removed.body).toEqual({
        enabled: false,
        proxyType: null,
        proxyHost: null,
        hasCredentials: false,
      });
      expect((await proxy(id)).body).toEqual(removed.body);
    });

    it('PATCH is for unscoped admin keys only; nothing changes otherwise', async () => {
      const body = { proxyUrl: 'http://proxy.example:3128' };
      expectError(await patchProxy(own, body, operator), 403, 'FORBIDDEN_ROLE');
      expectError(await patchProxy(own, body, viewer), 403, 'FORBIDDEN_ROLE');
      expectError(await patchProxy(own, body, scopedAdmin), 403, 'FORBIDDEN_SCOPED_KEY');
      expect((await proxy(own)).body).toMatchObject({ enabled: false });
      expect((await proxy(own, scopedViewer)).status).toBe(200);
      expectError(await proxy(other, scopedViewer), 403, 'FORBIDDEN_SESSION');
    });

    it.each([
      ['a missing proxyUrl', {}, 'body.proxyUrl'],
      ['no URL', { proxyUrl: 'not a url' }, 'body.proxyUrl'],
      ['an ftp URL', { proxyUrl: 'ftp://proxy.example:21' }, 'body.proxyUrl'],
      ['a URL over 255 characters', { proxyUrl: `http://${'a'.repeat(250)}.example` }, 'body.proxyUrl'],
      ['an unknown key', { proxyUrl: null, proxyType: 'http' }, 'body'],
    ])('PATCH 400 for %s', async (_label, body, path) => {
      expectValidation(await patchProxy(own, body), path);
    });

    it('401 without a key, 404 for an unknown session, 400 for an id that is no uuid', async () => {
      expectError(await proxy(own, null), 401, 'UNAUTHORIZED');
      expectError(await proxy(UNKNOWN_ID), 404, 'NOT_FOUND');
      expectError(await patchProxy(UNKNOWN_ID, { proxyUrl: null }), 404, 'NOT_FOUND');
      expectValidation(await proxy('nope'), 'path.id');
    });
  });

  it('a key limited to chats is refused on all four routes (they are no chat routes)', async () => {
    for (const [method, suffix, body] of [
      ['GET', 'config', undefined],
      ['PATCH', 'config', {}],
      ['GET', 'proxy', undefined],
      ['PATCH', 'proxy', { proxyUrl: null }],
    ] as const) {
      const res = await gw.request(method, `/api/sessions/${own}/${suffix}`, { key: chatLimited, body });
      expectError(res, 403, 'FORBIDDEN_CHAT_RESTRICTED');
    }
  });
});
