/**
 * An account restriction end to end: the simulated network restricts the linked account (reachout timelock
 * notification), the real Baileys client inside the gateway reports it, and the ready session moves to
 * `action_required` with the reason, refuses sends, publishes `session.restriction` and audits it; lifting it brings
 * the session back to `ready`. Stop and logout still work while restricted.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { GatewayEvent, GatewayEventMap } from '#shared/domain/events.js';
import { linkSessionByQr, phoneSequence } from '#tests/helpers/link-session.js';
import { type SimulatorProcess, startSimulatorProcess } from '#tests/helpers/simulator-process.js';
import { startTestGateway, type TestGateway, waitFor, waitForStatus } from '#tests/helpers/test-gateway.js';
import { unrefBaileysUploadTimeouts } from '#tests/wa-sim/harness/baileys-timers.js';

interface Account {
  devices: { deviceId: number; liveConnections: number; loggedOut: boolean }[];
}

interface RestrictionReply {
  restricted: boolean;
  restrictionEndsAt?: string;
  enforcementType?: string;
  notified: number;
}

type RestrictionData = GatewayEventMap['session.restriction'];

const nextPhone = phoneSequence('1557');
const CONTACT = `1557${String(process.pid % 1000).padStart(3, '0')}9000`;

describe('account restrictions with the Baileys engine against the simulator', () => {
  let sim: SimulatorProcess;
  let gw: TestGateway;
  const events: GatewayEvent[] = [];

  beforeAll(async () => {
    unrefBaileysUploadTimeouts();
    sim = await startSimulatorProcess();
    gw = await startTestGateway(sim.gatewayEnv);
    gw.gateway.events.subscribe((event) => {
      events.push(event);
    });
    await sim.admin.ok('/contacts', { number: CONTACT });
  }, 30_000);
  afterAll(async () => {
    await gw?.close();
    await sim?.stop();
  });

  async function linkedSession(): Promise<{ id: string; phone: string }> {
    return linkSessionByQr(gw, sim, nextPhone());
  }

  /** Restricts (or lifts) the account on the network; the simulator tells its connected device. */
  async function restrict(phone: string, body: Record<string, unknown>): Promise<RestrictionReply> {
    const reply = await sim.admin.ok<RestrictionReply>(`/accounts/${phone}/restriction`, body);
    expect(reply.notified).toBe(1);
    return reply;
  }

  const session = async (id: string) =>
    (await gw.request<{ status: string; lastError: string | null }>('GET', `/api/sessions/${id}`)).body;

  const restrictionEvents = (id: string): RestrictionData[] =>
    events.flatMap((e) => (e.event === 'session.restriction' && e.sessionId === id ? [e.data] : []));

  const audited = (action: string, id: string) =>
    waitFor(async () => {
      const res = await gw.request('GET', `/api/audit?action=${action}&sessionId=${id}`);
      return res.body?.total > 0 ? res.body : null;
    }, 10_000);

  const sendText = (id: string, text: string) =>
    gw.request('POST', `/api/sessions/${id}/messages/send-text`, {
      body: { chatId: `${CONTACT}@c.us`, text },
    });

  it('moves a ready session to action_required, refuses sends, and returns it to ready when lifted', async () => {
    const { id, phone } = await linkedSession();

    const reply = await restrict(phone, {
      restricted: true,
      expiresInSeconds: 600,
      enforcementType: 'BIZ_QUALITY',
    });
    await waitForStatus(gw, id, 'action_required', 15_000);
    expect((await session(id)).lastError).toEqual(expect.stringMatching(/restrict.*BIZ_QUALITY/i));
    const active = await waitFor(() => restrictionEvents(id).find((data) => data.active), 10_000);
    expect(active).toEqual({
      sessionId: id,
      active: true,
      kind: 'reachout_timelock',
      code: 'BIZ_QUALITY',
      expiresAt: reply.restrictionEndsAt,
    });
    const restrictedAudit = await audited('session_restricted', id);
    expect(restrictedAudit.total).toBe(1);
    expect(restrictedAudit.data[0].severity).toBe('warn');

    const refused = await sendText(id, 'while restricted');
    expect([refused.status, refused.body.code]).toEqual([400, 'SESSION_NOT_READY']);

    await restrict(phone, { restricted: false });
    await waitForStatus(gw, id, 'ready', 15_000);
    expect((await session(id)).lastError).toBeNull();
    await waitFor(() => restrictionEvents(id).some((data) => !data.active), 10_000);
    expect(restrictionEvents(id).map((data) => data.active)).toEqual([true, false]);
    expect(restrictionEvents(id)[1]).toMatchObject({ sessionId: id, active: false });
    const liftedAudit = await audited('session_restriction_lifted', id);
    expect(liftedAudit.total).toBe(1);

    // Ready again for real: the network takes the text now.
    const sent = await sendText(id, 'after the lift');
    expect(sent.status).toBe(201);
    await waitFor(async () => {
      const inbox = (await sim.admin.get<{ text?: string }[]>(`/contacts/${CONTACT}/messages`)).body;
      return inbox.some((message) => message.text === 'after the lift');
    }, 15_000);
  }, 60_000);

  it('stops a restricted session', async () => {
    const { id, phone } = await linkedSession();
    await restrict(phone, { restricted: true });
    await waitForStatus(gw, id, 'action_required', 15_000);

    const stop = await gw.request('POST', `/api/sessions/${id}/stop`);
    expect([stop.status, stop.body.status]).toEqual([200, 'disconnected']);
    expect((await session(id)).status).toBe('disconnected');
    await waitFor(
      async () => (await sim.admin.get<Account>(`/accounts/${phone}`)).body.devices[0]?.liveConnections === 0,
      10_000,
    );
  }, 60_000);

  it('logs out a restricted session: the device is unlinked on the network', async () => {
    const { id, phone } = await linkedSession();
    await restrict(phone, { restricted: true });
    await waitForStatus(gw, id, 'action_required', 15_000);

    const logout = await gw.request('POST', `/api/sessions/${id}/logout`);
    expect(logout.status).toBe(200);
    expect(logout.body).toMatchObject({ status: 'disconnected', phone: null });
    await waitFor(
      async () => (await sim.admin.get<Account>(`/accounts/${phone}`)).body.devices[0]?.loggedOut === true,
      10_000,
    );
  }, 60_000);
});
