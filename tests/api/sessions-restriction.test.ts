import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { GatewayEvent } from '#shared/domain/events.js';
import { startTestGateway, type TestGateway, waitFor, waitForStatus } from '#tests/helpers/test-gateway.js';

const NOTICE = { kind: 'reachout_timelock', code: 'DEFAULT', expiresAt: '2030-01-01T00:00:00.000Z' };

describe('account restrictions (action_required)', () => {
  let gw: TestGateway;
  const events: GatewayEvent[] = [];
  beforeAll(async () => {
    gw = await startTestGateway();
    gw.gateway.events.subscribe((event) => {
      events.push(event);
    });
  });
  afterAll(async () => {
    await gw.close();
  });

  async function readySession(): Promise<string> {
    const session = await gw.createSession();
    gw.network.storeCredentials(session.id, { phone: '15550004444', pushName: null });
    await gw.request('POST', `/api/sessions/${session.id}/start`);
    await waitForStatus(gw, session.id, 'ready');
    return session.id;
  }

  const audits = (action: string, id: string) =>
    waitFor(async () => {
      const res = await gw.request('GET', `/api/audit?action=${action}&sessionId=${id}`);
      return res.body.total > 0 ? res.body : null;
    });

  it('moves a ready session to action_required with the reason, refuses sends, and returns to ready when lifted', async () => {
    const id = await readySession();
    gw.network.restrict(id, { active: true, ...NOTICE });
    const restricted = await waitForStatus(gw, id, 'action_required');
    expect(restricted.lastError).toMatch(/restricted by WhatsApp \(reachout_timelock: DEFAULT\) until 2030/);
    const send = await gw.request('POST', `/api/sessions/${id}/messages/send-text`, {
      body: { chatId: '15557770001@c.us', text: 'blocked?' },
    });
    expect([send.status, send.body.code]).toEqual([400, 'SESSION_NOT_READY']);
    expect((await audits('session_restricted', id)).data[0].severity).toBe('warn');

    gw.network.restrict(id, { active: false, kind: 'reachout_timelock', code: null, expiresAt: null });
    const lifted = await waitForStatus(gw, id, 'ready');
    expect(lifted.lastError).toBeNull();
    await audits('session_restriction_lifted', id);
    const notices = events.filter((e) => e.event === 'session.restriction' && e.sessionId === id);
    expect(notices.map((e) => (e.event === 'session.restriction' ? e.data.active : null))).toEqual([
      true,
      false,
    ]);
  });

  it('still stops and logs out a restricted session', async () => {
    const stopped = await readySession();
    gw.network.restrict(stopped, { active: true, ...NOTICE });
    await waitForStatus(gw, stopped, 'action_required');
    const stop = await gw.request('POST', `/api/sessions/${stopped}/stop`);
    expect([stop.status, stop.body.status]).toEqual([200, 'disconnected']);

    const loggedOut = await readySession();
    gw.network.restrict(loggedOut, { active: true, ...NOTICE });
    await waitForStatus(gw, loggedOut, 'action_required');
    const logout = await gw.request('POST', `/api/sessions/${loggedOut}/logout`);
    expect(logout.status).toBe(200);
    expect(logout.body).toMatchObject({ status: 'disconnected', phone: null });
  });
});
