/**
 * Every send kind through the HTTP API, the queue, the host and the real Baileys client to simulated contacts, each
 * asserted by what the contact decrypted: a location, a contact card, a text with mentions, a reply, a forward, a
 * reaction (and taking it back), an edit and a delete for everyone, which the contact applies to its own record.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { GatewayEvent } from '#shared/domain/events.js';
import type { Message } from '#shared/domain/message.js';
import { linkSessionByQr } from '#tests/helpers/link-session.js';
import { startSimulatedGateway } from '#tests/helpers/simulated-gateway.js';
import type { SimulatorProcess } from '#tests/helpers/simulator-process.js';
import { type TestGateway, waitFor } from '#tests/helpers/test-gateway.js';

const PREFIX = `1558${String(process.pid % 10_000).padStart(4, '0')}`;
const PHONE = `${PREFIX}001`;
const CONTACT = `${PREFIX}900`;
const OTHER = `${PREFIX}901`;
const CONTACT_ID = `${CONTACT}@c.us`;
const OTHER_ID = `${OTHER}@c.us`;
const OWN_JID = `${PHONE}@s.whatsapp.net`;

describe('Baileys send kinds against the simulator', () => {
  let sim: SimulatorProcess;
  let gw: TestGateway;
  let sessionId: string;
  const events: GatewayEvent[] = [];

  beforeAll(async () => {
    ({ sim, gw } = await startSimulatedGateway(events));
    await sim.admin.ok('/contacts', { number: CONTACT, name: 'Carla' });
    await sim.admin.ok('/contacts', { number: OTHER, name: 'Otto' });
    sessionId = (await linkSessionByQr(gw, sim, PHONE)).id;
  }, 40_000);
  afterAll(async () => {
    await gw?.close();
    await sim?.stop();
  });

  /** Sends through `POST …/messages/{action}`, expects 201 and the row `sent`. */
  async function send(action: string, body: Record<string, unknown>): Promise<Message> {
    const res = await gw.request('POST', `/api/sessions/${sessionId}/messages/${action}`, { body });
    expect([action, res.status]).toEqual([action, 201]);
    expect(res.body.status).not.toBe('failed');
    return res.body as Message;
  }

  /** What `number` decrypted of the message `id`, once it arrived. */
  const receivedBy = (number: string, id: string) =>
    waitFor(async () => (await sim.admin.received(number)).find((m) => m.id === id), 15_000);

  it('sends a location with its name and address', async () => {
    const row = await send('send-location', {
      chatId: CONTACT_ID,
      latitude: 52.52,
      longitude: 13.405,
      description: 'Alexanderplatz',
      address: 'Berlin',
    });
    const got = await receivedBy(CONTACT, row.waMessageId ?? '');
    expect(got.content).toEqual({
      kind: 'location',
      latitude: 52.52,
      longitude: 13.405,
      name: 'Alexanderplatz',
      address: 'Berlin',
    });
  }, 30_000);

  it('sends a contact card whose vCard carries the number', async () => {
    const row = await send('send-contact', {
      chatId: CONTACT_ID,
      contactName: 'Ada Lovelace',
      contactNumber: '+44 20 7946 0000',
    });
    const got = await receivedBy(CONTACT, row.waMessageId ?? '');
    expect(got.content).toMatchObject({
      kind: 'contact',
      contacts: [{ displayName: 'Ada Lovelace', vcard: expect.stringContaining('waid=442079460000') }],
    });
  }, 30_000);

  it('sends a text with a mention, and a reply quoting the contact’s message', async () => {
    const mention = await send('send-text', {
      chatId: CONTACT_ID,
      text: `hi @${OTHER}`,
      mentions: [OTHER_ID],
    });
    expect((await receivedBy(CONTACT, mention.waMessageId ?? '')).content).toEqual({
      kind: 'text',
      text: `hi @${OTHER}`,
      mentions: [`${OTHER}@s.whatsapp.net`],
    });
    const { id: theirs } = await sim.admin.ok<{ id: string }>(`/contacts/${CONTACT}/messages`, {
      to: PHONE,
      content: { type: 'text', text: 'question?' },
    });
    await waitFor(() => events.some((e) => e.event === 'message.received' && e.data.id === theirs), 15_000);
    const reply = await send('reply', { chatId: CONTACT_ID, quotedMessageId: theirs, text: 'answer!' });
    expect((await receivedBy(CONTACT, reply.waMessageId ?? '')).content).toEqual({
      kind: 'text',
      text: 'answer!',
      quotedId: theirs,
    });
  }, 40_000);

  it('forwards a stored message to another contact, marked forwarded', async () => {
    const original = await send('send-text', { chatId: CONTACT_ID, text: 'pass it on' });
    const forward = await send('forward', {
      fromChatId: CONTACT_ID,
      toChatId: OTHER_ID,
      messageId: original.waMessageId,
    });
    expect((await receivedBy(OTHER, forward.waMessageId ?? '')).content).toEqual({
      kind: 'text',
      text: 'pass it on',
      forwarded: true,
    });
  }, 30_000);

  it('reacts to the contact’s message, changes and takes back the reaction, as the contact sees it', async () => {
    const { id: theirs } = await sim.admin.ok<{ id: string }>(`/contacts/${CONTACT}/messages`, {
      to: PHONE,
      content: { type: 'text', text: 'react to me' },
    });
    await waitFor(() => events.some((e) => e.event === 'message.received' && e.data.id === theirs), 15_000);
    const reactionOf = async () =>
      (await sim.admin.sent(CONTACT)).find((m) => m.id === theirs)?.reactions?.[OWN_JID] ?? null;
    await send('react', { chatId: CONTACT_ID, messageId: theirs, emoji: '👍' });
    await waitFor(async () => (await reactionOf()) === '👍', 15_000);
    await send('react', { chatId: CONTACT_ID, messageId: theirs, emoji: '🎉' });
    await waitFor(async () => (await reactionOf()) === '🎉', 15_000);
    await send('react', { chatId: CONTACT_ID, messageId: theirs, emoji: '' });
    await waitFor(async () => (await reactionOf()) === null, 15_000);
    const reactions = await gw.request(
      'GET',
      `/api/sessions/${sessionId}/messages/${encodeURIComponent(CONTACT_ID)}/${theirs}/reactions`,
    );
    expect(reactions.body).toEqual([]);
  }, 40_000);

  it('edits and then deletes its own text for everyone; the contact shows both', async () => {
    const original = await send('send-text', { chatId: CONTACT_ID, text: 'see you at 5' });
    const id = original.waMessageId ?? '';
    await receivedBy(CONTACT, id);
    await send('edit', { chatId: CONTACT_ID, messageId: id, body: 'see you at 6' });
    await waitFor(async () => (await receivedBy(CONTACT, id)).editedText === 'see you at 6', 15_000);
    await send('delete', { chatId: CONTACT_ID, messageId: id });
    await waitFor(async () => (await receivedBy(CONTACT, id)).revoked === true, 15_000);
    const rows = (
      await gw.request('GET', `/api/sessions/${sessionId}/messages?chatId=${encodeURIComponent(CONTACT_ID)}`)
    ).body.messages as Message[];
    expect(rows.find((m) => m.waMessageId === id)).toMatchObject({ type: 'revoked', body: null });
    expect(events.filter((e) => e.event === 'message.edited' || e.event === 'message.revoked').length).toBe(
      2,
    );
  }, 40_000);
});
