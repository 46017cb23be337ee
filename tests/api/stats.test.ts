/**
 * GET /api/stats/overview, /api/stats/messages and /api/stats/sessions/{sessionId}: the numbers from the counters
 * kept on write (inbound, sent, failed sends; by hour, type, session and chat), roles, a scoped key's view, errors,
 * and a deleted session's counters gone with it.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { withGatewayDataStore } from '#tests/helpers/gateway-data-store.js';
import { startTestGateway, type TestGateway, waitFor, waitForStatus } from '#tests/helpers/test-gateway.js';

const ME = '15550006666@c.us';
const BUSY = '15557771001@c.us';
const QUIET = '15557771002@c.us';
const GROUP = '120363025246125411@g.us';

const expectError = (res: { status: number; body: { code?: string } }, status: number, code: string) =>
  expect([res.status, res.body.code]).toEqual([status, code]);

describe('statistics', () => {
  let gw: TestGateway;
  let linked: string;
  let idle: { id: string; name: string };
  let operator: string;
  let viewer: string;
  let scopedAdmin: string;
  let scopedViewer: string;
  const hourNow = () => new Date().getUTCHours();
  const epochDay = () => Math.floor(Date.now() / 86_400_000);

  beforeAll(async () => {
    gw = await startTestGateway();
    linked = (await gw.createSession()).id;
    idle = await gw.createSession();
    gw.network.storeCredentials(linked, { phone: '15550006666', pushName: 'Me' });
    await gw.request('POST', `/api/sessions/${linked}/start`);
    await waitForStatus(gw, linked, 'ready');
    const inbound = (waMessageId: string, chatId: string, type: string, author: string | null = null) =>
      gw.network.deliverInbound(linked, {
        waMessageId,
        chatId,
        from: chatId,
        to: ME,
        author,
        body: type === 'text' ? 'hello' : null,
        type,
        timestamp: Math.floor(Date.now() / 1000),
        pushName: null,
      });
    await inbound('S-1', BUSY, 'text');
    await inbound('S-2', BUSY, 'text');
    await inbound('S-3', QUIET, 'text');
    await inbound('S-4', GROUP, 'text', BUSY);
    const send = () =>
      gw.request('POST', `/api/sessions/${linked}/messages/send-text`, {
        body: { chatId: BUSY, text: 'hi' },
      });
    expect((await send()).body.status).toBe('sent');
    gw.network.refuseSends(linked, true);
    expect((await send()).body.status).toBe('failed');
    gw.network.refuseSends(linked, false);
    await waitFor(async () => {
      const res = await gw.request('GET', `/api/sessions/${linked}/messages`);
      return res.body.total === 6 ? true : null;
    });
    operator = (await gw.createKey({ name: 'stats operator', role: 'operator' })).key;
    viewer = (await gw.createKey({ name: 'stats viewer', role: 'viewer' })).key;
    scopedAdmin = (
      await gw.createKey({ name: 'stats scoped admin', role: 'admin', allowedSessions: [idle.id] })
    ).key;
    scopedViewer = (await gw.createKey({ name: 'stats scoped', role: 'viewer', allowedSessions: [idle.id] }))
      .key;
  });
  afterAll(async () => {
    await gw.close();
  });

  it('overview: sessions by status, all-time and today counts; a failed send is failed, not sent', async () => {
    const res = await gw.request('GET', '/api/stats/overview');
    expect(res.status).toBe(200);
    expect(res.body.sessions).toMatchObject({ total: 2, active: 1 });
    expect(res.body.sessions.byStatus).toMatchObject({ ready: 1, created: 1, failed: 0 });
    expect(res.body.messages).toEqual({ sent: 1, received: 4, failed: 1, today: { sent: 1, received: 4 } });
  });

  it('every figure agrees with the messages actually stored (a send that turned failed included)', async () => {
    const stored = (await gw.request('GET', `/api/sessions/${linked}/messages?limit=100`)).body as {
      messages: { chatId: string; direction: string; status: string; type: string }[];
    };
    const outgoing = stored.messages.filter((m) => m.direction === 'outgoing');
    const failed = outgoing.filter((m) => m.status === 'failed').length;
    const received = stored.messages.length - outgoing.length;
    expect([outgoing.length, failed, received]).toEqual([2, 1, 4]);
    const overview = await gw.request('GET', '/api/stats/overview');
    expect(overview.body.messages).toEqual({
      sent: outgoing.length - failed,
      received,
      failed,
      today: { sent: outgoing.length - failed, received },
    });
    const byType: Record<string, number> = {};
    const byChat = new Map<string, number>();
    for (const m of stored.messages) {
      byType[m.type] = (byType[m.type] ?? 0) + 1;
      byChat.set(m.chatId, (byChat.get(m.chatId) ?? 0) + 1);
    }
    const top = [...byChat].sort((a, b) => b[1] - a[1]);
    for (const period of ['24h', '7d', '30d']) {
      const res = await gw.request('GET', `/api/stats/messages?period=${period}`);
      expect(res.body.byType).toEqual(byType);
      expect(res.body.topChats.map((c: { chatId: string; messageCount: number }) => c.messageCount)).toEqual(
        top.map(([, n]) => n),
      );
      expect(res.body.topChats[0].chatId).toBe(top[0]?.[0]);
    }
    const session = await gw.request('GET', `/api/stats/sessions/${linked}`);
    expect(session.body.messages).toEqual({
      sent: outgoing.length - failed,
      received,
      today: stored.messages.length - failed,
      failed,
    });
  });

  it('messages: time series per period, by type, by session (all of the key), top chats', async () => {
    const day = await gw.request('GET', '/api/stats/messages?period=24h');
    expect(day.status).toBe(200);
    expect(day.body.period).toBe('24h');
    expect(day.body.timeSeries).toHaveLength(24);
    const last = day.body.timeSeries.at(-1);
    expect(last).toMatchObject({ sent: 1, received: 4 });
    expect(new Date(last.timestamp).getUTCHours()).toBe(hourNow());
    expect(Date.parse(day.body.timeSeries[1].timestamp) - Date.parse(day.body.timeSeries[0].timestamp)).toBe(
      3_600_000,
    );
    expect(day.body.byType).toEqual({ text: 6 });
    expect(day.body.bySession).toEqual([
      { sessionId: linked, name: expect.any(String), sent: 1, received: 4 },
      { sessionId: idle.id, name: idle.name, sent: 0, received: 0 },
    ]);
    expect(day.body.topChats[0]).toEqual({ sessionId: linked, chatId: BUSY, messageCount: 4 });
    expect(day.body.topChats).toHaveLength(3);

    for (const [period, length] of [
      ['7d', 7],
      ['30d', 30],
    ] as const) {
      const res = await gw.request('GET', `/api/stats/messages?period=${period}`);
      expect(res.body.timeSeries).toHaveLength(length);
      expect(res.body.timeSeries.at(-1)).toMatchObject({ sent: 1, received: 4 });
      expect(new Date(res.body.timeSeries.at(-1).timestamp).getUTCHours()).toBe(0);
    }
    expect((await gw.request('GET', '/api/stats/messages')).body.period).toBe('24h');
    expectError(await gw.request('GET', '/api/stats/messages?period=1y'), 400, 'VALIDATION_FAILED');
  });

  it("a session's numbers: totals, today, top chats with last activity, 24 hours by hour of day", async () => {
    const res = await gw.request('GET', `/api/stats/sessions/${linked}`, { key: viewer });
    expect(res.status).toBe(200);
    expect(res.body.session).toMatchObject({ id: linked, status: 'ready' });
    expect(res.body.messages).toEqual({ sent: 1, received: 4, today: 5, failed: 1 });
    expect(res.body.topChats.map((c: { chatId: string; count: number }) => [c.chatId, c.count])).toEqual([
      [BUSY, 4],
      [expect.any(String), 1],
      [expect.any(String), 1],
    ]);
    expect(Date.now() - Date.parse(res.body.topChats[0].lastActive)).toBeLessThan(60_000);
    expect(res.body.hourlyActivity).toHaveLength(24);
    expect(res.body.hourlyActivity.at(-1)).toEqual({ hour: hourNow(), sent: 1, received: 4 });
    expect(res.body.hourlyActivity[0].hour).toBe((hourNow() + 1) % 24);
  });

  it("roles: overview and period stats are admin; a session's stats viewer; no key 401", async () => {
    for (const path of ['/api/stats/overview', '/api/stats/messages']) {
      expectError(await gw.request('GET', path, { key: operator }), 403, 'FORBIDDEN_ROLE');
      expect((await gw.request('GET', path, { key: '' })).status).toBe(401);
    }
    expect((await gw.request('GET', `/api/stats/sessions/${linked}`, { key: operator })).status).toBe(200);
  });

  it('a session-scoped key sees only its sessions; another session is 403; unknown 404; bad id 400', async () => {
    const overview = await gw.request('GET', '/api/stats/overview', { key: scopedAdmin });
    expect(overview.body.sessions).toMatchObject({ total: 1, active: 0 });
    expect(overview.body.messages).toEqual({
      sent: 0,
      received: 0,
      failed: 0,
      today: { sent: 0, received: 0 },
    });
    const messages = await gw.request('GET', '/api/stats/messages?period=7d', { key: scopedAdmin });
    expect(messages.body.bySession).toEqual([{ sessionId: idle.id, name: idle.name, sent: 0, received: 0 }]);
    expect(messages.body.topChats).toEqual([]);
    expect(messages.body.byType).toEqual({});
    const own = await gw.request('GET', `/api/stats/sessions/${idle.id}`, { key: scopedViewer });
    expect(own.body.messages).toEqual({ sent: 0, received: 0, today: 0, failed: 0 });
    expect(own.body.topChats).toEqual([]);
    expectError(
      await gw.request('GET', `/api/stats/sessions/${linked}`, { key: scopedViewer }),
      403,
      'FORBIDDEN_SESSION',
    );
    expect((await gw.request('GET', '/api/stats/sessions/00000000-0000-4000-8000-000000000000')).status).toBe(
      404,
    );
    expectError(await gw.request('GET', '/api/stats/sessions/not-a-uuid'), 400, 'VALIDATION_FAILED');
  });

  it('deleting a session removes its counters', async () => {
    const gone = await gw.createSession();
    gw.network.storeCredentials(gone.id, { phone: '15550006667', pushName: 'Gone' });
    await gw.request('POST', `/api/sessions/${gone.id}/start`);
    await waitForStatus(gw, gone.id, 'ready');
    await gw.network.deliverInbound(gone.id, {
      waMessageId: 'G-1',
      chatId: QUIET,
      from: QUIET,
      to: '15550006667@c.us',
      author: null,
      body: 'bye',
      type: 'text',
      timestamp: Math.floor(Date.now() / 1000),
      pushName: null,
    });
    await waitFor(async () =>
      (await gw.request('GET', '/api/stats/overview')).body.messages.received === 5 ? true : null,
    );
    const counters = () =>
      withGatewayDataStore(gw, async (data) => ({
        totals: (await data.messageStats.totals([gone.id])).size,
        hours: (await data.messageStats.hours([gone.id], 0, 10_000_000)).length,
        chats: (await data.messageStats.topChats([gone.id], { days: 30, today: epochDay() }, 10)).length,
      }));
    expect(await counters()).toEqual({ totals: 1, hours: 1, chats: 1 });
    expect((await gw.request('DELETE', `/api/sessions/${gone.id}`)).status).toBe(204);
    expect(await counters()).toEqual({ totals: 0, hours: 0, chats: 0 });
    const after = await gw.request('GET', '/api/stats/overview');
    expect(after.body.messages).toMatchObject({ sent: 1, received: 4, failed: 1 });
    expect(after.body.sessions.total).toBe(2);
  });
});
