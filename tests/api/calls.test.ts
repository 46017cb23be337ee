/**
 * Calls on the test engine (the Baileys engine against the simulator: tests/e2e/baileys-calls.test.ts): a call
 * ringing is `call.received`; rejecting it through the API declines it on the network and is `call.rejected`; a call
 * answered on the phone is `call.accepted` and one not answered `call.missed`; a call that no longer rings is 404.
 * Each event names the caller by both ids. Both modes.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { startTestGateway, type TestGateway, waitFor } from '#tests/helpers/test-gateway.js';
import { expectError, expectValidation, linkedSession } from './sessions-support.js';
import { createWebhook, type Receiver, startReceiver } from './webhooks-support.js';

const CALLER = '15550002222@c.us';
const CALLER_LID = '880001@lid';

describe('calls', () => {
  let gw: TestGateway;
  let receiver: Receiver;
  let sessionId: string;
  const reject = (callId: string) => gw.request('POST', `/api/sessions/${sessionId}/calls/${callId}/reject`);
  const event = (name: string, callId: string) =>
    waitFor(() =>
      receiver.received
        .map((request) => JSON.parse(request.body) as { event: string; data: Record<string, unknown> })
        .find((payload) => payload.event === name && payload.data.callId === callId),
    );

  beforeAll(async () => {
    gw = await startTestGateway({ SSRF_ALLOWED_HOSTS: '127.0.0.1' });
    receiver = await startReceiver();
    sessionId = (await linkedSession(gw)).id;
    gw.network.linkIdentity(sessionId, { lid: CALLER_LID, phone: CALLER });
    await createWebhook(gw, sessionId, {
      url: receiver.url,
      events: ['call.received', 'call.accepted', 'call.rejected', 'call.missed'],
    });
  }, 60_000);
  afterAll(async () => {
    await receiver.close();
    await gw.close();
  });

  it('rejects a ringing call: declined on the network, published as call.rejected', async () => {
    const callId = gw.network.placeCall(sessionId, CALLER, true);
    expect((await event('call.received', callId))?.data).toMatchObject({ from: CALLER, isVideo: true });
    const res = await reject(callId);
    expect([res.status, res.body]).toEqual([200, { success: true }]);
    expect(gw.network.calls.get(callId)?.status).toBe('rejected');
    expect((await event('call.rejected', callId))?.data).toMatchObject({
      sessionId,
      outcome: 'rejected',
      caller: { phone: CALLER, lid: CALLER_LID },
    });
    expectError(await reject(callId), 404, 'NOT_FOUND');
  });

  it('a call answered on the phone is call.accepted, one not answered call.missed', async () => {
    const answered = gw.network.placeCall(sessionId, CALLER);
    const missed = gw.network.placeCall(sessionId, CALLER);
    gw.network.endCall(answered, 'accepted');
    gw.network.endCall(missed, 'missed');
    expect((await event('call.accepted', answered))?.data).toMatchObject({
      outcome: 'accepted',
      from: CALLER,
    });
    expect((await event('call.missed', missed))?.data).toMatchObject({ outcome: 'missed' });
    expectError(await reject(answered), 404, 'NOT_FOUND');
  });

  it('an unknown call is 404; a malformed call id 400', async () => {
    expectError(await reject('NOSUCHCALL'), 404, 'NOT_FOUND');
    expectValidation(await reject('bad%20id'), 'path.callId');
  });
});
