/** GET /api/sessions, GET /api/sessions/{id} and GET /api/sessions/stats/overview: paging, filters, scope, stats. */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { sessionName, startTestGateway, type TestGateway } from '#tests/helpers/test-gateway.js';
import {
  createSession,
  expectError,
  expectSessionShape,
  expectValidation,
  linkedSession,
  type SessionBody,
  startTo,
  UNKNOWN_ID,
} from './sessions-support.js';

describe('reading sessions', () => {
  let gw: TestGateway;
  let viewer: string;
  /** Created in this order, so the list shows them newest first. */
  const mine: SessionBody[] = [];
  let scopedViewer: string;

  beforeAll(async () => {
    gw = await startTestGateway();
    viewer = (await gw.createKey({ name: 'viewer', role: 'viewer' })).key;
    for (let i = 0; i < 3; i++) {
      mine.push(await createSession(gw));
      await new Promise((resolve) => setTimeout(resolve, 5)); // distinct createdAt for a stable order
    }
    scopedViewer = (
      await gw.createKey({
        name: 'scoped-viewer',
        role: 'viewer',
        allowedSessions: [mine[0]!.id, mine[2]!.id],
      })
    ).key;
  });
  afterAll(async () => {
    await gw.close();
  });

  describe('GET /api/sessions', () => {
    it('answers a bare array of public sessions, newest first, to a viewer', async () => {
      const res = await gw.request<SessionBody[]>('GET', '/api/sessions', { key: viewer });
      expect(res.status).toBe(200);
      expect(Array.isArray(res.body)).toBe(true);
      for (const s of res.body) expectSessionShape(s);
      const ids = res.body.map((s) => s.id);
      const positions = mine.map((s) => ids.indexOf(s.id));
      expect(positions.every((p) => p >= 0)).toBe(true);
      expect([...positions].sort((a, b) => b - a)).toEqual(positions);
      const created = res.body.map((s) => s.createdAt);
      expect([...created].sort().reverse()).toEqual(created);
    });

    it('pages with limit and offset', async () => {
      const all = (await gw.request<SessionBody[]>('GET', '/api/sessions')).body;
      expect(all.length).toBeGreaterThanOrEqual(3);
      const first = await gw.request<SessionBody[]>('GET', '/api/sessions?limit=1');
      expect(first.body.map((s) => s.id)).toEqual([all[0]!.id]);
      const second = await gw.request<SessionBody[]>('GET', '/api/sessions?limit=2&offset=1');
      expect(second.body.map((s) => s.id)).toEqual([all[1]!.id, all[2]!.id]);
      const past = await gw.request<SessionBody[]>('GET', `/api/sessions?offset=${all.length}`);
      expect(past.body).toEqual([]);
      const max = await gw.request<SessionBody[]>('GET', '/api/sessions?limit=1000&offset=0');
      expect(max.body).toEqual(all);
    });

    it('filters by exact, case-sensitive name', async () => {
      const target = mine[1]!;
      const hit = await gw.request<SessionBody[]>('GET', `/api/sessions?name=${target.name}`);
      expect(hit.body).toEqual([target]);
      const upper = await gw.request('GET', `/api/sessions?name=${target.name.toUpperCase()}`);
      expect(upper.body).toEqual([]);
      const prefix = await gw.request('GET', `/api/sessions?name=${target.name.slice(0, -1)}`);
      expect(prefix.body).toEqual([]);
      const none = await gw.request('GET', `/api/sessions?name=${sessionName('nobody')}`);
      expect(none.status).toBe(200);
      expect(none.body).toEqual([]);
    });

    it.each([
      ['limit=0', 'query.limit'],
      ['limit=1001', 'query.limit'],
      ['limit=abc', 'query.limit'],
      ['limit=1.5', 'query.limit'],
      ['limit=1&limit=2', 'query.limit'],
      ['offset=-1', 'query.offset'],
      ['offset=x', 'query.offset'],
      ['name=', 'query.name'],
      [`name=${'a'.repeat(101)}`, 'query.name'],
      ['status=ready', 'query'],
    ])('400 for ?%s', async (query, path) => {
      expectValidation(await gw.request('GET', `/api/sessions?${query}`), path);
    });

    it('400 for a NUL byte in the query', async () => {
      expectError(await gw.request('GET', '/api/sessions?name=a%00b'), 400, 'VALIDATION_FAILED');
    });

    it('a scoped key sees only its sessions, also through paging and the name filter', async () => {
      const res = await gw.request<SessionBody[]>('GET', '/api/sessions', { key: scopedViewer });
      expect(res.status).toBe(200);
      expect(res.body.map((s) => s.id)).toEqual([mine[2]!.id, mine[0]!.id]);
      const paged = await gw.request<SessionBody[]>('GET', '/api/sessions?limit=1&offset=1', {
        key: scopedViewer,
      });
      expect(paged.body.map((s) => s.id)).toEqual([mine[0]!.id]);
      const other = await gw.request('GET', `/api/sessions?name=${mine[1]!.name}`, { key: scopedViewer });
      expect(other.body).toEqual([]);
      const own = await gw.request<SessionBody[]>('GET', `/api/sessions?name=${mine[2]!.name}`, {
        key: scopedViewer,
      });
      expect(own.body.map((s) => s.id)).toEqual([mine[2]!.id]);
    });

    it('a scoped key whose sessions were deleted sees an empty list, not everything', async () => {
      const gone = await createSession(gw);
      const key = (await gw.createKey({ name: 'scoped-gone', role: 'viewer', allowedSessions: [gone.id] }))
        .key;
      expect((await gw.request('DELETE', `/api/sessions/${gone.id}`)).status).toBe(204);
      const res = await gw.request('GET', '/api/sessions', { key });
      expect(res.status).toBe(200);
      expect(res.body).toEqual([]);
    });

    it('401 without a key, with a bad key, and with a bad Bearer token; 200 with a good Bearer token', async () => {
      expectError(await gw.request('GET', '/api/sessions', { key: null }), 401, 'UNAUTHORIZED');
      expectError(await gw.request('GET', '/api/sessions', { key: 'wg_nope' }), 401, 'UNAUTHORIZED');
      expectError(
        await gw.request('GET', '/api/sessions', { key: null, headers: { authorization: 'Bearer wg_nope' } }),
        401,
        'UNAUTHORIZED',
      );
      const ok = await gw.request('GET', '/api/sessions', {
        key: null,
        headers: { authorization: `Bearer ${viewer}` },
      });
      expect(ok.status).toBe(200);
    });

    it('403 for a key whose allowedIps exclude 127.0.0.1', async () => {
      const key = (await gw.createKey({ name: 'ip-far', role: 'admin', allowedIps: ['192.168.1.1'] })).key;
      expectError(await gw.request('GET', '/api/sessions', { key }), 403, 'FORBIDDEN_IP');
    });
  });

  describe('GET /api/sessions/{id}', () => {
    it('200 with the public session to a viewer and to a key scoped to it', async () => {
      for (const key of [viewer, scopedViewer]) {
        const res = await gw.request('GET', `/api/sessions/${mine[0]!.id}`, { key });
        expect(res.status).toBe(200);
        expectSessionShape(res.body);
        expect(res.body).toEqual(mine[0]);
      }
    });

    it('400 for an id that is not a uuid (sessions resolve by id, never by name)', async () => {
      expectValidation(await gw.request('GET', `/api/sessions/${mine[0]!.name}`), 'path.id');
      expectValidation(await gw.request('GET', '/api/sessions/123'), 'path.id');
      expectValidation(await gw.request('GET', `/api/sessions/${mine[0]!.id}x`), 'path.id');
    });

    it('404 for an unknown uuid', async () => {
      expectError(await gw.request('GET', `/api/sessions/${UNKNOWN_ID}`), 404, 'NOT_FOUND');
    });

    it('403 for a scoped key on another session, also when that id does not exist', async () => {
      expectError(
        await gw.request('GET', `/api/sessions/${mine[1]!.id}`, { key: scopedViewer }),
        403,
        'FORBIDDEN_SESSION',
      );
      expectError(
        await gw.request('GET', `/api/sessions/${UNKNOWN_ID}`, { key: scopedViewer }),
        403,
        'FORBIDDEN_SESSION',
      );
    });

    it('401 without a key', async () => {
      expectError(
        await gw.request('GET', `/api/sessions/${mine[0]!.id}`, { key: null }),
        401,
        'UNAUTHORIZED',
      );
    });
  });

  describe('GET /api/sessions/stats/overview', () => {
    const STATUSES = [
      'created',
      'initializing',
      'qr_ready',
      'authenticating',
      'ready',
      'disconnected',
      'action_required',
      'failed',
    ];

    it('counts by status for the whole gateway; memory in whole MB', async () => {
      const res = await gw.request('GET', '/api/sessions/stats/overview', { key: viewer });
      expect(res.status).toBe(200);
      expect(Object.keys(res.body).sort()).toEqual([
        'active',
        'byStatus',
        'disconnected',
        'memoryUsage',
        'ready',
        'total',
      ]);
      expect(Object.keys(res.body.byStatus).sort()).toEqual([...STATUSES].sort());
      const counts = Object.values(res.body.byStatus as Record<string, number>);
      expect(res.body.total).toBe(counts.reduce((a, b) => a + b, 0));
      const all = (await gw.request<SessionBody[]>('GET', '/api/sessions')).body;
      expect(res.body.total).toBe(all.length);
      for (const status of STATUSES) {
        expect(res.body.byStatus[status]).toBe(all.filter((s) => s.status === status).length);
      }
      expect(res.body.ready).toBe(res.body.byStatus.ready);
      expect(res.body.disconnected).toBe(res.body.byStatus.disconnected);
      const { heapUsed, heapTotal, rss } = res.body.memoryUsage;
      for (const mb of [heapUsed, heapTotal, rss]) {
        expect(Number.isInteger(mb)).toBe(true);
        expect(mb).toBeGreaterThan(0);
        expect(mb).toBeLessThan(64 * 1024); // MB, not bytes
      }
      expect(heapUsed).toBeLessThanOrEqual(heapTotal);
    });

    it('follows the sessions through their lifecycle; a scoped key counts only its sessions', async () => {
      const idle = await createSession(gw);
      const pending = await createSession(gw);
      await startTo(gw, pending.id, 'qr_ready');
      const linked = await linkedSession(gw);
      const key = (
        await gw.createKey({
          name: 'stats-scoped',
          role: 'viewer',
          allowedSessions: [idle.id, pending.id, linked.id],
        })
      ).key;
      const scoped = await gw.request('GET', '/api/sessions/stats/overview', { key });
      expect(scoped.status).toBe(200);
      expect(scoped.body).toMatchObject({
        total: 3,
        ready: 1,
        disconnected: 0,
        byStatus: {
          created: 1,
          initializing: 0,
          qr_ready: 1,
          authenticating: 0,
          ready: 1,
          disconnected: 0,
          action_required: 0,
          failed: 0,
        },
      });

      expect((await gw.request('POST', `/api/sessions/${linked.id}/stop`)).status).toBe(200);
      const after = await gw.request('GET', '/api/sessions/stats/overview', { key });
      expect(after.body).toMatchObject({ total: 3, ready: 0, disconnected: 1 });
      expect(after.body.byStatus).toMatchObject({ created: 1, qr_ready: 1, ready: 0, disconnected: 1 });

      const all = await gw.request('GET', '/api/sessions/stats/overview');
      expect(all.body.total).toBeGreaterThan(3);
      expect(all.body.active).toBeGreaterThanOrEqual(1); // the qr_ready session's engine runs on this node
    });

    it('401 without a key; 403 for a key outside its allowedIps', async () => {
      expectError(
        await gw.request('GET', '/api/sessions/stats/overview', { key: null }),
        401,
        'UNAUTHORIZED',
      );
      const key = (await gw.createKey({ name: 'ip-stats', role: 'viewer', allowedIps: ['10.1.2.3'] })).key;
      expectError(await gw.request('GET', '/api/sessions/stats/overview', { key }), 403, 'FORBIDDEN_IP');
    });
  });
});
