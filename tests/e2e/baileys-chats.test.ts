/**
 * Chats and presence end to end: the real Baileys client inside the gateway, the simulator's phone and contacts.
 * A chat a contact writes in is listed with its last message, unread; what the API does to a chat reaches the
 * account's phone over app-state sync (archive, pin, mute, read and unread, clear, delete: read back from the phone's
 * own view), and what the phone does reaches the list; typing reaches the account's chat states. A presence
 * subscription reports the contact's online and typing states, and is issued again after a restart of the gateway
 * (the simulator drops a connection's subscriptions when it closes, as WhatsApp does).
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { ChatSummary } from '#shared/domain/chat.js';
import { phoneSequence } from '#tests/helpers/link-session.js';
import type { SimulatorProcess } from '#tests/helpers/simulator-process.js';
import { type TestGateway, waitFor, waitForStatus } from '#tests/helpers/test-gateway.js';
import { startSimulatedSession } from './sim-session.js';

const nextPhone = phoneSequence('1558');
const base = `1558${String(process.pid % 1000).padStart(3, '0')}`;
const ALICE = `${base}7000`;
const BOB = `${base}7001`;

describe('chats and presence with the Baileys engine against the simulator', () => {
  let sim: SimulatorProcess;
  let gw: TestGateway;
  let sessionId: string;
  let phone: string;
  const aliceChat = `${ALICE}@c.us`;
  const aliceJid = `${ALICE}@s.whatsapp.net`;

  beforeAll(async () => {
    ({ sim, gw, sessionId, phone } = await startSimulatedSession(nextPhone(), [ALICE, BOB]));
  }, 30_000);
  afterAll(async () => {
    await gw?.close();
    await sim?.stop();
  });

  const chats = async () =>
    (await gw.request('GET', `/api/sessions/${sessionId}/chats`)).body as ChatSummary[];
  const chat = async (id: string) => (await chats()).find((c) => c.id === id);
  const chatWhere = (id: string, pick: (c: ChatSummary) => boolean) =>
    waitFor(async () => {
      const found = await chat(id);
      return found && pick(found) ? found : undefined;
    }, 15_000);
  const operate = (action: string, body: Record<string, unknown>) =>
    gw.request('POST', `/api/sessions/${sessionId}/chats/${action}`, { body });
  const atPhone = (pick: Parameters<typeof sim.admin.chatWhen>[2]) =>
    sim.admin.chatWhen(phone, aliceJid, pick, 15_000);
  const phoneDoes = (change: Record<string, unknown>) =>
    sim.admin.ok(`/accounts/${phone}/chats/${aliceJid}`, change);

  it('lists the chat a contact wrote in, with its last message, unread', async () => {
    await sim.admin.ok(`/contacts/${ALICE}/messages`, { to: phone, text: 'hello there' });
    await sim.admin.ok(`/contacts/${ALICE}/messages`, { to: phone, text: 'are you there?' });
    const listed = await chatWhere(aliceChat, (c) => c.unreadCount === 2);
    expect(listed).toMatchObject({
      kind: 'individual',
      lastMessage: { fromMe: false, type: 'text', body: 'are you there?' },
      archived: false,
      pinned: false,
      muted: false,
    });
  });

  it('archive, pin and mute through the API reach the phone', async () => {
    expect((await operate('archive', { chatId: aliceChat, archive: true })).body).toEqual({ success: true });
    await atPhone((c) => c.archived);
    expect((await operate('pin', { chatId: aliceChat, pin: true })).body).toEqual({ success: true });
    await atPhone((c) => c.pinned !== null);
    const until = Date.now() + 3_600_000;
    expect((await operate('mute', { chatId: aliceChat, muteUntil: until })).body).toEqual({ success: true });
    await atPhone((c) => c.muteEndTimestamp === until);
    await chatWhere(aliceChat, (c) => c.archived && c.pinned && c.muteExpiration === until);
  });

  it('a chat named by its contact’s LID is the chat kept under the phone number', async () => {
    const { lid } = (await sim.admin.get<{ lid: string }>(`/contacts/${ALICE}`)).body;
    expect((await operate('archive', { chatId: lid, archive: false })).body).toEqual({ success: true });
    await atPhone((c) => !c.archived);
    await chatWhere(aliceChat, (c) => !c.archived);
    expect((await chats()).map((c) => c.id)).not.toContain(lid);
  });

  it('what the phone does reaches the list', async () => {
    await phoneDoes({ archived: false, pinned: false, muteUntil: null });
    await chatWhere(aliceChat, (c) => !c.archived && !c.pinned && !c.muted);
    await phoneDoes({ read: false });
    await chatWhere(aliceChat, (c) => c.markedUnread);
  });

  it('read through the API reaches the phone and the contact sees its messages read', async () => {
    expect((await operate('read', { chatId: aliceChat })).body).toEqual({ success: true });
    await atPhone((c) => c.read);
    await chatWhere(aliceChat, (c) => c.unreadCount === 0 && !c.markedUnread);
    await waitFor(async () => (await sim.admin.sent(ALICE)).some((m) => m.status === 'read'), 15_000);
    expect((await operate('unread', { chatId: aliceChat })).body).toEqual({ success: true });
    await atPhone((c) => c.markedUnread);
  });

  it('typing and recording reach the chat', async () => {
    const shown = async () =>
      (
        await sim.admin.get<{ chatstates: Record<string, { state: string }> }>(
          `/accounts/${phone}/chatstates`,
        )
      ).body.chatstates[aliceJid]?.state;
    expect((await operate('typing', { chatId: aliceChat, state: 'recording' })).body).toEqual({
      success: true,
    });
    await waitFor(async () => (await shown()) === 'recording', 10_000);
    await operate('typing', { chatId: aliceChat, state: 'paused' });
    await waitFor(async () => (await shown()) === 'paused', 10_000);
  });

  it('a chat without a known message is declined', async () => {
    expect((await operate('archive', { chatId: `${BOB}@c.us`, archive: true })).body).toEqual({
      success: false,
    });
  });

  it('clearing reaches the phone and removes the stored messages', async () => {
    const history = async () =>
      (await gw.request('GET', `/api/sessions/${sessionId}/messages?chatId=${encodeURIComponent(aliceChat)}`))
        .body.total as number;
    expect(await history()).toBe(2);
    const cleared = await gw.request(
      'DELETE',
      `/api/sessions/${sessionId}/chats/${encodeURIComponent(aliceChat)}/messages`,
    );
    expect(cleared.body).toEqual({ success: true });
    await atPhone((c) => c.clearedAt !== null);
    await waitFor(async () => (await history()) === 0, 10_000);
    await chatWhere(aliceChat, (c) => c.lastMessage === null);
  });

  it('presence: subscribed, the contact online and typing; issued again after a restart', async () => {
    const presence = async () =>
      (await gw.request('GET', `/api/sessions/${sessionId}/presence/${encodeURIComponent(aliceChat)}`))
        .body as {
        participants: { id: string; state: string }[];
      } | null;
    const stateIs = (state: string) =>
      waitFor(async () => (await presence())?.participants.some((p) => p.state === state), 15_000);
    expect(
      (
        await gw.request('POST', `/api/sessions/${sessionId}/presence/subscribe`, {
          body: { chatId: aliceChat },
        })
      ).body,
    ).toEqual({
      success: true,
    });
    await sim.admin.ok(`/contacts/${ALICE}/config`, { online: true });
    await stateIs('available');
    await sim.admin.ok(`/contacts/${ALICE}/chatstate`, { to: phone, state: 'composing' });
    await stateIs('composing');

    gw = await gw.restart();
    await waitForStatus(gw, sessionId, 'ready', 20_000);
    // Only a subscription issued on the new connection hears this.
    await sim.admin.ok(`/contacts/${ALICE}/config`, { online: false });
    await stateIs('unavailable');
  });

  it('deleting through the API removes the chat at the phone and from the list; the phone deleting too', async () => {
    expect((await operate('delete', { chatId: aliceChat })).body).toEqual({ success: true });
    await atPhone((c) => c.deleted);
    await waitFor(async () => (await chat(aliceChat)) === undefined, 10_000);
    await sim.admin.ok(`/contacts/${BOB}/messages`, { to: phone, text: 'hi from bob' });
    await chatWhere(`${BOB}@c.us`, () => true);
    await sim.admin.ok(`/accounts/${phone}/chats/${BOB}@s.whatsapp.net`, { deleted: true });
    await waitFor(async () => (await chat(`${BOB}@c.us`)) === undefined, 15_000);
  });
});
