/**
 * The presence routes on the test engine (the Baileys engine against the simulator: tests/e2e/baileys-chats.test.ts):
 * a subscription the network takes, the presence it reports read back (null, never 404, before anything was) and
 * published as `presence.update` with each person by both ids, nothing for a chat not subscribed to, the account's
 * own presence set on the network, and subscriptions issued again on the connection after a restart. Both modes.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { startTestGateway, type TestGateway, waitFor, waitForStatus } from '#tests/helpers/test-gateway.js';
import { expectValidation, linkedSession } from './sessions-support.js';
import { createWebhook, type Receiver, startReceiver } from './webhooks-support.js';

const ALICE = '15550002222@c.us';
const ALICE_LID = '887766554433221@lid';
const BOB = '15550003333@c.us';

describe('presence', () => {
  let gw: TestGateway;
  let receiver: Receiver;
  let sessionId: string;
  const presenceOf = async (chatId: string) => {
    const res = await gw.request('GET', `/api/sessions/${sessionId}/presence/${encodeURIComponent(chatId)}`);
    expect(res.status).toBe(200);
    return res.body;
  };
  const subscribe = (chatId: string) =>
    gw.request('POST', `/api/sessions/${sessionId}/presence/subscribe`, { body: { chatId } });
  const updates = () =>
    receiver.received
      .map((request) => JSON.parse(request.body) as { event: string; data: Record<string, unknown> })
      .filter((payload) => payload.event === 'presence.update')
      .map((payload) => payload.data);

  beforeAll(async () => {
    gw = await startTestGateway({ SSRF_ALLOWED_HOSTS: '127.0.0.1' });
    receiver = await startReceiver();
    sessionId = (await linkedSession(gw, {}, { phone: '15550007777', pushName: 'Me' })).id;
    await createWebhook(gw, sessionId, { url: receiver.url, events: ['presence.update'] });
  }, 60_000);
  afterAll(async () => {
    await receiver.close();
    await gw.close();
  });

  it('answers null (200) for a chat whose presence nothing reported', async () => {
    expect(await presenceOf(ALICE)).toBeNull();
  });

  it('a subscription reaches the network; what it reports is read back and published with both ids', async () => {
    expect((await subscribe(ALICE)).body).toEqual({ success: true });
    expect(gw.network.presence.issued.get(sessionId)).toEqual([ALICE]);
    gw.network.linkIdentity(sessionId, { lid: ALICE_LID, phone: ALICE });
    gw.network.reportPresence(sessionId, ALICE, [{ id: ALICE, state: 'composing', lastSeen: null }]);

    await waitFor(async () => (await presenceOf(ALICE)) !== null);
    expect(await presenceOf(ALICE)).toMatchObject({
      chatId: ALICE,
      participants: [{ id: ALICE, state: 'composing', lastSeen: null }],
    });
    const [update] = await waitFor(() => (updates().length > 0 ? updates() : undefined));
    expect(update).toMatchObject({
      sessionId,
      chatId: ALICE,
      participants: [
        { id: ALICE, state: 'composing', lastSeen: null, person: { phone: ALICE, lid: ALICE_LID } },
      ],
    });
  });

  it('a chat not subscribed to reports nothing', async () => {
    gw.network.reportPresence(sessionId, BOB, [{ id: BOB, state: 'available', lastSeen: null }]);
    expect(await presenceOf(BOB)).toBeNull();
  });

  it("sets the account's own presence on the network", async () => {
    const put = (available: boolean) =>
      gw.request('PUT', `/api/sessions/${sessionId}/presence`, { body: { available } });
    expect((await put(true)).body).toEqual({ success: true });
    expect(gw.network.presence.own.get(sessionId)).toBe(true);
    await put(false);
    expect(gw.network.presence.own.get(sessionId)).toBe(false);
    expectValidation(
      await gw.request('PUT', `/api/sessions/${sessionId}/presence`, { body: { available: 'yes' } }),
      'body.available',
    );
  });

  it('bad chat ids are 400 with the field named', async () => {
    expectValidation(await subscribe('alice'), 'body.chatId');
    const res = await gw.request('GET', `/api/sessions/${sessionId}/presence/alice`);
    expectValidation(res, 'path.chatId');
  });

  it('subscriptions are issued again on the connection after a restart', async () => {
    const issued = () => gw.network.presence.issued.get(sessionId) ?? [];
    await subscribe(BOB);
    const before = issued().length;
    gw = await gw.restart();
    await waitForStatus(gw, sessionId, 'ready');
    await waitFor(async () => issued().length >= before + 2);
    expect(issued().slice(before).sort()).toEqual([ALICE, BOB]);
    gw.network.reportPresence(sessionId, BOB, [{ id: BOB, state: 'available', lastSeen: null }]);
    await waitFor(async () => (await presenceOf(BOB)) !== null);
  });
});
