/**
 * The kinds a contact's message is received as, end to end with the real Baileys client and the simulated network:
 * a location, a contact card and replies (to a message the gateway sent, to the contact's own) are stored with
 * their metadata and published as message.received with `location`, `vCards` and `quotedMessage`; a location in a
 * group likewise. A reaction, an edit and a revoke change the stored message they point at and are published as
 * message.reaction, message.edited and message.revoked, never stored as messages of their own.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { GatewayEvent, MessageEventData } from '#shared/domain/events.js';
import type { Message } from '#shared/domain/message.js';
import { linkSessionByQr } from '#tests/helpers/link-session.js';
import { startSimulatedGateway } from '#tests/helpers/simulated-gateway.js';
import type { SimulatorProcess } from '#tests/helpers/simulator-process.js';
import { type TestGateway, waitFor } from '#tests/helpers/test-gateway.js';
import { closeClient, type LinkedClient, linkByQr } from '#tests/wa-sim/harness/client.js';

const PREFIX = `1557${String(process.pid % 10_000).padStart(4, '0')}`;
const PHONE = `${PREFIX}001`;
/** Another account, whose own client creates the group the gateway's account and the contact are in. */
const OWNER = `${PREFIX}002`;
const CONTACT = `${PREFIX}900`;
const CONTACT_ID = `${CONTACT}@c.us`;
const VCARD =
  'BEGIN:VCARD\nVERSION:3.0\nFN:Dana Doe\nTEL;type=CELL;waid=15550009099:+1 555 000 9099\nEND:VCARD';
const BERLIN = { latitude: 52.52, longitude: 13.405 };

describe('Baileys inbound kinds against the simulator', () => {
  let sim: SimulatorProcess;
  let gw: TestGateway;
  let owner: LinkedClient | undefined;
  let sessionId: string;
  const events: GatewayEvent[] = [];

  beforeAll(async () => {
    ({ sim, gw } = await startSimulatedGateway(events));
    await sim.admin.ok('/contacts', { number: CONTACT, name: 'Carla' });
    sessionId = (await linkSessionByQr(gw, sim, PHONE)).id;
  }, 40_000);
  afterAll(async () => {
    if (owner) await closeClient(owner.sock);
    await gw?.close();
    await sim?.stop();
  });

  const receivedEvent = (id: string): MessageEventData | undefined => {
    const event = events.find((e) => e.event === 'message.received' && e.data.id === id);
    return event?.event === 'message.received' ? event.data : undefined;
  };

  /** The stored rows of `chatId`, newest first. */
  const rowsOf = async (chatId: string): Promise<Message[]> =>
    (await gw.request('GET', `/api/sessions/${sessionId}/messages?chatId=${encodeURIComponent(chatId)}`)).body
      .messages;

  /** The contact sends `content` to `to`; resolves with its id, event data and stored row once published. */
  async function contactSends(to: string, content: Record<string, unknown>) {
    const { id } = await sim.admin.ok<{ id: string }>(`/contacts/${CONTACT}/messages`, { to, content });
    const event = await waitFor(() => receivedEvent(id), 15_000);
    const row = (await rowsOf(event.chatId)).find((m) => m.waMessageId === id);
    return { id, event, row };
  }

  it('stores a location with its name as body and publishes the place', async () => {
    const content = { type: 'location', ...BERLIN, name: 'Alexanderplatz', address: 'Berlin' };
    const { event, row } = await contactSends(PHONE, content);
    const location = { ...BERLIN, description: 'Alexanderplatz', address: 'Berlin' };
    expect(row).toMatchObject({ type: 'location', body: 'Alexanderplatz', direction: 'incoming' });
    expect(row?.metadata).toEqual({ pushName: 'Carla', location });
    expect(event).toMatchObject({ type: 'location', body: 'Alexanderplatz', chatId: CONTACT_ID, location });
    expect(event).not.toHaveProperty('quotedMessage');
  }, 30_000);

  it('stores a contact card with its display name as body and publishes its vCard', async () => {
    const { event, row } = await contactSends(PHONE, {
      type: 'contact',
      displayName: 'Dana Doe',
      vcard: VCARD,
    });
    expect(row).toMatchObject({ type: 'contact', body: 'Dana Doe' });
    expect(row?.metadata).toEqual({ pushName: 'Carla', vCards: [VCARD] });
    expect(event).toMatchObject({ type: 'contact', body: 'Dana Doe', vCards: [VCARD] });
    expect(event).not.toHaveProperty('location');
  }, 30_000);

  it('stores a reply to a message the gateway sent, quoting it with its text and the account as sender', async () => {
    const sent = await gw.request('POST', `/api/sessions/${sessionId}/messages/send-text`, {
      body: { chatId: CONTACT_ID, text: 'are you coming?' },
    });
    expect(sent.status).toBe(201);
    const quotedId: string = sent.body.waMessageId;
    await waitFor(async () => {
      const inbox = (await sim.admin.get<Array<{ id: string }>>(`/contacts/${CONTACT}/messages`)).body;
      return inbox.some((m) => m.id === quotedId);
    }, 15_000);
    const { event, row } = await contactSends(PHONE, { type: 'reply', quotedId, text: 'on my way' });
    const quotedMessage = { id: quotedId, body: 'are you coming?', participant: `${PHONE}@c.us` };
    expect(row).toMatchObject({ type: 'text', body: 'on my way' });
    expect(row?.metadata).toEqual({ pushName: 'Carla', quotedMessage });
    expect(event).toMatchObject({ type: 'text', body: 'on my way' });
    expect(event.quotedMessage).toEqual({ id: quotedId, body: 'are you coming?' });
  }, 30_000);

  it('stores a reply to the contact’s own earlier text, quoting the contact', async () => {
    const first = await contactSends(PHONE, { type: 'text', text: 'lunch at noon?' });
    const { event, row } = await contactSends(PHONE, {
      type: 'reply',
      quotedId: first.id,
      text: 'or at one',
    });
    expect(row?.metadata).toEqual({
      pushName: 'Carla',
      quotedMessage: { id: first.id, body: 'lunch at noon?', participant: CONTACT_ID },
    });
    expect(event.quotedMessage).toEqual({ id: first.id, body: 'lunch at noon?' });
  }, 30_000);

  it('stores a location sent in a group, the group as chat and the contact as author', async () => {
    owner = await linkByQr(sim, { phone: OWNER });
    const group = await owner.sock.groupCreate('Kinds', [
      `${PHONE}@s.whatsapp.net`,
      `${CONTACT}@s.whatsapp.net`,
    ]);
    const { event, row } = await contactSends(group.id, { type: 'location', ...BERLIN });
    expect(row).toMatchObject({
      chatId: group.id,
      from: group.id,
      author: CONTACT_ID,
      type: 'location',
      body: null,
    });
    expect(row?.metadata).toEqual({ pushName: 'Carla', location: BERLIN });
    expect(event).toMatchObject({
      chatId: group.id,
      author: CONTACT_ID,
      isGroup: true,
      body: '',
      location: BERLIN,
    });
  }, 40_000);

  it('applies the contact’s reaction, edit and revoke to the stored message and publishes each', async () => {
    const target = await contactSends(PHONE, { type: 'text', text: 'see you at 5' });
    const change = async (content: Record<string, unknown>) =>
      (await sim.admin.ok<{ id: string }>(`/contacts/${CONTACT}/messages`, { to: PHONE, content })).id;
    const stored = async () => (await rowsOf(CONTACT_ID)).find((m) => m.waMessageId === target.id);
    const reaction = await change({ type: 'reaction', messageId: target.id, emoji: '👍' });
    await waitFor(async () => (await stored())?.metadata?.reactions, 15_000);
    expect((await stored())?.metadata?.reactions).toEqual({
      [CONTACT_ID]: { emoji: '👍', timestamp: expect.any(Number) },
    });
    await change({ type: 'edit', messageId: target.id, text: 'see you at 6' });
    await waitFor(async () => (await stored())?.body === 'see you at 6', 15_000);
    await change({ type: 'revoke', messageId: target.id });
    await waitFor(async () => (await stored())?.type === 'revoked', 15_000);
    expect(await stored()).toMatchObject({ body: null, metadata: { revokedAt: expect.any(Number) } });
    // The changes are no messages of their own: no row, no message.received.
    expect(receivedEvent(reaction)).toBeUndefined();
    expect((await rowsOf(CONTACT_ID)).some((m) => m.waMessageId === reaction)).toBe(false);
    const published = events.filter(
      (e) =>
        (e.event === 'message.reaction' && e.data.messageId === target.id) ||
        (e.event === 'message.edited' && e.data.messageId === target.id) ||
        (e.event === 'message.revoked' && e.data.id === target.id),
    );
    expect(published.map((e) => e.event)).toEqual(['message.reaction', 'message.edited', 'message.revoked']);
    expect(published[0]?.data).toMatchObject({ reaction: '👍', senderId: CONTACT_ID, fromMe: false });
    expect(published[1]?.data).toMatchObject({ body: 'see you at 6', senderId: CONTACT_ID });
  }, 40_000);
});
