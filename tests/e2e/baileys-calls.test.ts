/**
 * Incoming calls end to end: a simulated contact calls the linked account; a session created with
 * `config.autoRejectCalls` has the real Baileys client inside the gateway reject it (the simulator records
 * the reject), a session without it leaves the call ringing, and the API rejects a ringing call. When the ringing
 * ends on the network (the caller hangs up, it times out, the phone answers), the session publishes it as
 * `call.missed` or `call.accepted`.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { createWebhook, type Receiver, startReceiver } from '#tests/api/webhooks-support.js';
import { linkSessionByQr, phoneSequence } from '#tests/helpers/link-session.js';
import { type SimulatorProcess, startSimulatorProcess } from '#tests/helpers/simulator-process.js';
import { startTestGateway, type TestGateway, waitFor } from '#tests/helpers/test-gateway.js';
import { unrefBaileysUploadTimeouts } from '#tests/wa-sim/harness/baileys-timers.js';

interface CallView {
  callId: string;
  to: string;
  status: 'ringing' | 'rejected' | 'hungUp' | 'timedOut' | 'answered' | 'ended';
  devices: number;
  acks: number;
  rejectedBy?: string;
}

const nextPhone = phoneSequence('1558');
const CONTACT = `1558${String(process.pid % 1000).padStart(3, '0')}9000`;
/** How long a call must stay ringing to count as left alone (the gateway rejects within milliseconds). */
const LEFT_ALONE_MS = 1_500;

describe('incoming calls with the Baileys engine against the simulator', () => {
  let sim: SimulatorProcess;
  let gw: TestGateway;
  let receiver: Receiver;

  beforeAll(async () => {
    unrefBaileysUploadTimeouts();
    sim = await startSimulatorProcess();
    gw = await startTestGateway({ ...sim.gatewayEnv, SSRF_ALLOWED_HOSTS: '127.0.0.1' });
    receiver = await startReceiver();
    await sim.admin.ok('/contacts', { number: CONTACT });
  }, 30_000);
  afterAll(async () => {
    await receiver?.close();
    await gw?.close();
    await sim?.stop();
  });

  /** Creates a session with `config`, links it by QR and waits until it is ready. */
  async function linkedSession(config?: Record<string, unknown>): Promise<{ id: string; phone: string }> {
    return linkSessionByQr(gw, sim, nextPhone(), config);
  }

  /** The contact calls `phone`; answers the call id once the offer reached the session's device. */
  async function call(phone: string, video = false): Promise<string> {
    const placed = await sim.admin.ok<{ callId: string; devices: number }>(`/contacts/${CONTACT}/call`, {
      to: phone,
      video,
    });
    expect(placed.devices).toBe(1);
    return placed.callId;
  }

  const callView = async (callId: string): Promise<CallView | undefined> =>
    (await sim.admin.get<CallView[]>(`/contacts/${CONTACT}/calls`)).body.find((c) => c.callId === callId);

  it('rejects an incoming call when the session has autoRejectCalls', async () => {
    // The config is stored but never shown in responses: the network is what tells whether it took effect.
    const { id, phone } = await linkedSession({ autoRejectCalls: true });
    const callId = await call(phone);
    const rejected = await waitFor(async () => {
      const view = await callView(callId);
      return view?.status === 'rejected' ? view : null;
    }, 10_000);
    expect(rejected).toMatchObject({ to: phone, acks: 1, rejectedBy: `${phone}:1@s.whatsapp.net` });

    // A video call is rejected the same way, and the session stays ready throughout.
    const videoId = await call(phone, true);
    await waitFor(async () => (await callView(videoId))?.status === 'rejected', 10_000);
    expect((await gw.request('GET', `/api/sessions/${id}`)).body.status).toBe('ready');
  }, 60_000);

  it('leaves the call ringing when the session does not have autoRejectCalls', async () => {
    const { id, phone } = await linkedSession();
    const callId = await call(phone);
    // The device handled the offer (its ack came back), so a reject would have been sent by now.
    await waitFor(async () => (await callView(callId))?.acks === 1, 10_000);
    await new Promise((resolve) => setTimeout(resolve, LEFT_ALONE_MS));
    expect(await callView(callId)).toMatchObject({ status: 'ringing', to: phone });
    expect((await gw.request('GET', `/api/sessions/${id}`)).body.status).toBe('ready');
  }, 60_000);

  it('rejects a ringing call through the API; the ends of the ringing are published', async () => {
    const { id, phone } = await linkedSession();
    await createWebhook(gw, id, {
      url: receiver.url,
      events: ['call.received', 'call.accepted', 'call.rejected', 'call.missed'],
    });
    const published = (event: string, callId: string) =>
      waitFor(
        () =>
          receiver.received
            .map((request) => JSON.parse(request.body) as { event: string; data: Record<string, unknown> })
            .find((payload) => payload.event === event && payload.data.callId === callId)?.data,
        10_000,
      );
    const reject = (callId: string) => gw.request('POST', `/api/sessions/${id}/calls/${callId}/reject`);

    const rejected = await call(phone);
    await published('call.received', rejected);
    expect((await reject(rejected)).body).toEqual({ success: true });
    await waitFor(async () => (await callView(rejected))?.status === 'rejected', 10_000);
    expect(await published('call.rejected', rejected)).toMatchObject({
      outcome: 'rejected',
      from: `${CONTACT}@c.us`,
    });
    expect((await reject(rejected)).status).toBe(404);

    for (const [how, event] of [
      ['hangup', 'call.missed'],
      ['timeout', 'call.missed'],
      ['answered', 'call.accepted'],
    ] as const) {
      const callId = await call(phone);
      await published('call.received', callId);
      await sim.admin.ok(`/contacts/${CONTACT}/calls/${callId}/end`, { how });
      expect(await published(event, callId)).toMatchObject({ callId, caller: { phone: `${CONTACT}@c.us` } });
      expect((await reject(callId)).status).toBe(404);
    }
  }, 60_000);
});
