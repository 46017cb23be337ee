/**
 * Every kind a contact sends through the admin API (location, contact card, reply, reaction, edit, revoke), 1:1
 * and in a group, as the real Baileys client decodes it; and the route's 404 and 400 answers for bad targets.
 */
import { jest } from '@jest/globals';
import { type GroupMetadata, proto, type WAMessage } from '@whiskeysockets/baileys';
import type { LinkedClient } from '#tests/wa-sim/harness/client.js';
import { type MessageLog, textOf } from '#tests/wa-sim/harness/messages.js';
import { type LinkedSim, startLinkedSim, type TestSim } from '#tests/wa-sim/harness/test-sim.js';
import { eventually } from '#tests/wa-sim/harness/wait.js';

jest.setTimeout(30_000);

const PHONE = '15550008001';
const ALICE = '15550009001';
const BOB = '15550009002';
const jid = (number: string): string => `${number}@s.whatsapp.net`;
const { MESSAGE_EDIT, REVOKE } = proto.Message.ProtocolMessage.Type;
const VCARD =
  'BEGIN:VCARD\nVERSION:3.0\nFN:Dana Doe\nTEL;type=CELL;waid=15550009099:+1 555 000 9099\nEND:VCARD';

let sim: TestSim;
let client: LinkedClient;
let log: MessageLog;

/** `number` sends `to` a text or a content through the admin API; resolves with what Baileys upserted for it. */
async function contactSends(number: string, to: string, content: string | object): Promise<WAMessage> {
  const body = typeof content === 'string' ? { to, text: content } : { to, content };
  const { id } = await sim.admin.ok<{ id: string }>(`/contacts/${number}/messages`, body);
  return log.upserted(id);
}

/** The account sends `text` to `chat`; resolves with its id once every contact of `numbers` decrypted it. */
async function accountSends(chat: string, text: string, ...numbers: string[]): Promise<string> {
  const id = (await client.sock.sendMessage(chat, { text }))?.key.id ?? '';
  for (const number of numbers) {
    const inbox = async () =>
      (await sim.admin.get<Array<{ id: string }>>(`/contacts/${number}/messages`)).body;
    await eventually(async () => (await inbox()).some((m) => m.id === id), 10_000, `${id} at ${number}`);
  }
  return id;
}

let linked: LinkedSim;

beforeAll(async () => {
  linked = await startLinkedSim(PHONE, [ALICE, BOB]);
  ({ sim, client, log } = linked);
});

afterAll(() => linked.stop());

describe('1:1 from a contact', () => {
  it('delivers a location', async () => {
    const content = {
      type: 'location',
      latitude: 52.52,
      longitude: 13.405,
      name: 'Office',
      address: 'Main St 1',
    };
    const message = await contactSends(ALICE, PHONE, content);
    expect(message.key).toMatchObject({ remoteJid: jid(ALICE), fromMe: false });
    expect(message.message?.locationMessage).toMatchObject({
      degreesLatitude: 52.52,
      degreesLongitude: 13.405,
      name: 'Office',
      address: 'Main St 1',
    });
  });

  it('delivers a contact card', async () => {
    const content = { type: 'contact', displayName: 'Dana Doe', vcard: VCARD };
    const message = await contactSends(ALICE, PHONE, content);
    expect(message.message?.contactMessage).toMatchObject({ displayName: 'Dana Doe', vcard: VCARD });
  });

  it('replies to a message the account sent, quoting it', async () => {
    const quotedId = await accountSends(jid(ALICE), 'lunch at noon?', ALICE);
    const message = await contactSends(ALICE, PHONE, { type: 'reply', quotedId, text: 'yes!' });
    const reply = message.message?.extendedTextMessage;
    expect(reply?.text).toBe('yes!');
    expect(reply?.contextInfo).toMatchObject({ stanzaId: quotedId, participant: jid(PHONE) });
    expect(textOf(reply?.contextInfo?.quotedMessage)).toBe('lunch at noon?');
  });

  it('replies to a message the contact sent, quoting it', async () => {
    const first = await contactSends(ALICE, PHONE, 'one more thing');
    const quotedId = first.key.id ?? '';
    const message = await contactSends(ALICE, PHONE, { type: 'reply', quotedId, text: 'see above' });
    expect(message.message?.extendedTextMessage?.contextInfo).toMatchObject({
      stanzaId: quotedId,
      participant: jid(ALICE),
      quotedMessage: { conversation: 'one more thing' },
    });
  });

  it('reacts to a message the account sent, and takes the reaction back', async () => {
    const messageId = await accountSends(jid(ALICE), 'react to me', ALICE);
    const content = { type: 'reaction', messageId, emoji: '👍' };
    const message = await contactSends(ALICE, PHONE, content);
    // Baileys turns the key to the receiver's side: the reacted message is the account's own.
    expect(message.message?.reactionMessage).toMatchObject({
      key: { remoteJid: jid(ALICE), fromMe: true, id: messageId },
      text: '👍',
    });
    expect(Number(message.message?.reactionMessage?.senderTimestampMs)).toBeGreaterThan(0);
    const event = await log.reaction(message.key.id ?? '');
    expect(event).toMatchObject({ key: { id: messageId, fromMe: true }, reaction: { text: '👍' } });
    const removed = await contactSends(ALICE, PHONE, { ...content, emoji: '' });
    expect(removed.message?.reactionMessage).toMatchObject({ key: { id: messageId }, text: '' });
  });

  it('edits a text it sent: Baileys upserts the wrapped protocol message and updates the original', async () => {
    const original = await contactSends(ALICE, PHONE, 'see you at 5');
    const messageId = original.key.id ?? '';
    const message = await contactSends(ALICE, PHONE, { type: 'edit', messageId, text: 'see you at 6' });
    const edit = message.message?.editedMessage?.message?.protocolMessage;
    expect(edit).toMatchObject({
      type: MESSAGE_EDIT,
      key: { id: messageId, fromMe: true, remoteJid: jid(PHONE) },
      editedMessage: { conversation: 'see you at 6' },
    });
    expect(Number(edit?.timestampMs)).toBeGreaterThan(0);
    const update = await log.updated(messageId, (u) => !!u.update.message?.editedMessage);
    expect(update.key).toMatchObject({ remoteJid: jid(ALICE), fromMe: false });
    expect(update.update.message?.editedMessage?.message).toEqual({ conversation: 'see you at 6' });
  });

  it('revokes a message it sent: Baileys upserts the protocol message and updates the original to a stub', async () => {
    const original = await contactSends(ALICE, PHONE, 'oops, wrong chat');
    const messageId = original.key.id ?? '';
    const message = await contactSends(ALICE, PHONE, { type: 'revoke', messageId });
    expect(message.message?.protocolMessage).toMatchObject({
      type: REVOKE,
      key: { id: messageId, fromMe: true, remoteJid: jid(PHONE) },
    });
    const update = await log.updated(
      messageId,
      (u) => u.update.messageStubType === proto.WebMessageInfo.StubType.REVOKE,
    );
    expect(update.update.message).toBeNull();
  });

  it('records each kind in the contact’s sent list', async () => {
    const sent = (await sim.admin.get<Array<Record<string, unknown>>>(`/contacts/${ALICE}/sent`)).body;
    expect(sent.map((entry) => entry.kind)).toEqual([
      'location',
      'contact',
      'reply',
      'text',
      'reply',
      'reaction',
      'reaction',
      'text',
      'edit',
      'text',
      'revoke',
    ]);
    expect(sent[5]).toMatchObject({ kind: 'reaction', emoji: '👍', status: expect.any(String) });
    expect(sent[7]).toMatchObject({ kind: 'text', text: 'see you at 5', editedText: 'see you at 6' });
    expect(sent[9]).toMatchObject({ kind: 'text', text: 'oops, wrong chat', revoked: true });
    expect(sent[10]).toMatchObject({ kind: 'revoke', target: sent[9]?.id, to: jid(PHONE) });
  });
});

describe('in a group', () => {
  let group: GroupMetadata;

  beforeAll(async () => {
    group = await client.sock.groupCreate('Kinds', [jid(ALICE), jid(BOB)]);
  });

  it('replies to and reacts to the account’s group message, naming its author', async () => {
    const quotedId = await accountSends(group.id, 'who is in?', ALICE, BOB);
    const reply = await contactSends(ALICE, group.id, { type: 'reply', quotedId, text: 'me' });
    expect(reply.key).toMatchObject({ remoteJid: group.id, participant: jid(ALICE), fromMe: false });
    expect(reply.message?.extendedTextMessage?.contextInfo).toMatchObject({
      stanzaId: quotedId,
      participant: jid(PHONE),
    });
    expect(textOf(reply.message?.extendedTextMessage?.contextInfo?.quotedMessage)).toBe('who is in?');
    const content = { type: 'reaction', messageId: quotedId, emoji: '🎉' };
    const reaction = await contactSends(BOB, group.id, content);
    expect(reaction.message?.reactionMessage).toMatchObject({
      key: { remoteJid: group.id, fromMe: true, id: quotedId, participant: jid(PHONE) },
      text: '🎉',
    });
  });

  it('edits and revokes its own group messages', async () => {
    const original = await contactSends(BOB, group.id, 'meet at 7');
    const messageId = original.key.id ?? '';
    const edit = await contactSends(BOB, group.id, { type: 'edit', messageId, text: 'meet at 8' });
    expect(edit.message?.editedMessage?.message?.protocolMessage).toMatchObject({
      type: MESSAGE_EDIT,
      key: { remoteJid: group.id, fromMe: true, id: messageId },
      editedMessage: { conversation: 'meet at 8' },
    });
    const updated = await log.updated(messageId, (u) => !!u.update.message?.editedMessage);
    expect(updated.key).toMatchObject({ remoteJid: group.id, participant: jid(BOB) });
    const revoke = await contactSends(BOB, group.id, { type: 'revoke', messageId });
    expect(revoke.message?.protocolMessage).toMatchObject({ type: REVOKE, key: { id: messageId } });
  });
});

describe('bad targets', () => {
  const post = (number: string, content: Record<string, unknown>) =>
    sim.admin.post<{ error: string }>(`/contacts/${number}/messages`, { to: PHONE, content });

  it('answers 404 for a message the contact neither sent nor received in that chat', async () => {
    const reply = await post(ALICE, { type: 'reply', quotedId: 'NOPE', text: 'x' });
    expect(reply).toEqual({ status: 404, body: { error: expect.stringMatching(/no message NOPE/) } });
    expect((await post(ALICE, { type: 'reaction', messageId: 'NOPE', emoji: '👍' })).status).toBe(404);
    expect((await post(ALICE, { type: 'edit', messageId: 'NOPE', text: 'x' })).status).toBe(404);
    expect((await post(ALICE, { type: 'revoke', messageId: 'NOPE' })).status).toBe(404);
    // Alice's message exists, but Bob's chat with the account never saw it.
    const { id } = await sim.admin.ok<{ id: string }>(`/contacts/${ALICE}/messages`, {
      to: PHONE,
      text: 'mine',
    });
    expect((await post(BOB, { type: 'reply', quotedId: id, text: 'x' })).status).toBe(404);
  });

  it('answers 400 for an edit or revoke that cannot work', async () => {
    const received = await accountSends(jid(ALICE), 'not yours to edit', ALICE);
    const notOwn = await post(ALICE, { type: 'edit', messageId: received, text: 'x' });
    expect(notOwn).toEqual({ status: 400, body: { error: expect.stringMatching(/only its own messages/) } });
    const location = await sim.admin.ok<{ id: string }>(`/contacts/${ALICE}/messages`, {
      to: PHONE,
      content: { type: 'location', latitude: 0, longitude: 0 },
    });
    const notText = await post(ALICE, { type: 'edit', messageId: location.id, text: 'x' });
    expect(notText).toEqual({
      status: 400,
      body: { error: expect.stringMatching(/is a location, not a text/) },
    });
    expect((await post(ALICE, { type: 'revoke', messageId: location.id })).status).toBe(200);
    const again = await post(ALICE, { type: 'revoke', messageId: location.id });
    expect(again).toEqual({ status: 400, body: { error: expect.stringMatching(/it was revoked/) } });
    expect((await post(ALICE, { type: 'reaction', messageId: location.id, emoji: '👍' })).status).toBe(400);
  });

  it('answers 400 for a reply to a reaction', async () => {
    const messageId = await accountSends(jid(ALICE), 'react here', ALICE);
    const reaction = await sim.admin.ok<{ id: string }>(`/contacts/${ALICE}/messages`, {
      to: PHONE,
      content: { type: 'reaction', messageId, emoji: '❤️' },
    });
    const reply = await post(ALICE, { type: 'reply', quotedId: reaction.id, text: 'x' });
    expect(reply).toEqual({ status: 400, body: { error: expect.stringMatching(/not a message shown/) } });
  });
});
