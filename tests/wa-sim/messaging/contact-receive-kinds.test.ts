/**
 * Every kind the real Baileys client sends (`sock.sendMessage`: texts with mentions, replies, locations, contact
 * cards, forwards, reactions, edits, revokes; wrapped messages through `relayMessage`) as a contact decodes it,
 * 1:1 and in a group; and reactions, edits and revokes applied to the message they point at.
 */
import { jest } from '@jest/globals';
import {
  type AnyMessageContent,
  type MiscMessageGenerationOptions,
  proto,
  type WAMessage,
} from '@whiskeysockets/baileys';
import type { ReceivedMessage } from '#tests/wa-sim/accounts/contacts.js';
import type { LinkedClient } from '#tests/wa-sim/harness/client.js';
import { type MessageLog, textOf } from '#tests/wa-sim/harness/messages.js';
import { type LinkedSim, startLinkedSim, type TestSim } from '#tests/wa-sim/harness/test-sim.js';
import { eventually } from '#tests/wa-sim/harness/wait.js';

jest.setTimeout(30_000);

const PHONE = '15550010001';
const ALICE = '15550011001';
const BOB = '15550011002';
const jid = (number: string): string => `${number}@s.whatsapp.net`;
const VCARD = (name: string) =>
  `BEGIN:VCARD\nVERSION:3.0\nFN:${name}\nTEL;waid=15550011099:+1 555\nEND:VCARD`;

let sim: TestSim;
let client: LinkedClient;
let log: MessageLog;

/** Message `id` as contact `number` recorded it, once it decrypted it. */
function receivedAt(number: string, id: string): Promise<ReceivedMessage> {
  const found = async () => (await sim.admin.received(number)).find((m) => m.id === id);
  return eventually(found, 10_000, `${id} at ${number}`);
}

/** The account sends `content` to `chat` with `sock.sendMessage`; resolves with what it sent. */
async function accountSends(
  chat: string,
  content: AnyMessageContent,
  options?: MiscMessageGenerationOptions,
): Promise<WAMessage> {
  const sent = await client.sock.sendMessage(chat, content, options);
  if (!sent?.key.id) throw new Error('sendMessage answered no message');
  return sent;
}

/** The account sends `content`; resolves with the decoded record at each contact of `numbers` (the first's). */
async function decodedBy(chat: string, content: AnyMessageContent, ...numbers: string[]) {
  const { key } = await accountSends(chat, content);
  const records = await Promise.all(numbers.map((number) => receivedAt(number, key.id ?? '')));
  return records[0] as ReceivedMessage;
}

/** Contact `number` sends `text` to `to` through the admin API; resolves with Baileys' upsert of it. */
async function contactSays(number: string, to: string, text: string): Promise<WAMessage> {
  const { id } = await sim.admin.ok<{ id: string }>(`/contacts/${number}/messages`, { to, text });
  return log.upserted(id);
}

async function sentBy(number: string, id: string) {
  return (await sim.admin.sent(number)).find((m) => m.id === id);
}

let linked: LinkedSim;

beforeAll(async () => {
  linked = await startLinkedSim(PHONE, [ALICE, BOB]);
  ({ sim, client, log } = linked);
});

afterAll(() => linked.stop());

describe('1:1: what the contact decodes', () => {
  it('texts, with their mentions; the record keeps its type and text', async () => {
    const plain = await decodedBy(jid(ALICE), { text: 'plain' }, ALICE);
    expect(plain).toMatchObject({ from: jid(PHONE), type: 'text', text: 'plain' });
    expect(plain.content).toEqual({ kind: 'text', text: 'plain' });
    const mention = await decodedBy(jid(ALICE), { text: 'hi @bob', mentions: [jid(BOB)] }, ALICE);
    expect(mention.content).toEqual({ kind: 'text', text: 'hi @bob', mentions: [jid(BOB)] });
  });

  it('health counts what contacts decrypted and says when the last was', async () => {
    type Stats = { stats: { decryptedByContacts: number; lastDecryptedAtMs: number } };
    const before = (await sim.admin.get<Stats>('/health')).body.stats;
    const sentAfter = Date.now();
    await decodedBy(jid(ALICE), { text: 'counted' }, ALICE);
    const after = (await sim.admin.get<Stats>('/health')).body.stats;
    expect(after.decryptedByContacts).toBe(before.decryptedByContacts + 1);
    expect(after.lastDecryptedAtMs).toBeGreaterThanOrEqual(sentAfter);
    expect(after.lastDecryptedAtMs).toBeLessThanOrEqual(Date.now());
  });

  it('a reply, by the id of the message it quotes', async () => {
    const question = await contactSays(ALICE, PHONE, 'lunch?');
    const reply = await accountSends(jid(ALICE), { text: 'sure' }, { quoted: question });
    const record = await receivedAt(ALICE, reply.key.id ?? '');
    expect(record.content).toEqual({ kind: 'text', text: 'sure', quotedId: question.key.id });
  });

  it('locations, with and without a name and address', async () => {
    const office = { degreesLatitude: 52.52, degreesLongitude: 13.405, name: 'Office', address: 'Main St 1' };
    const named = await decodedBy(jid(ALICE), { location: office }, ALICE);
    expect(named.content).toEqual({
      kind: 'location',
      latitude: 52.52,
      longitude: 13.405,
      name: 'Office',
      address: 'Main St 1',
    });
    const bare = await decodedBy(
      jid(ALICE),
      { location: { degreesLatitude: -1.5, degreesLongitude: 0 } },
      ALICE,
    );
    expect(bare.content).toEqual({ kind: 'location', latitude: -1.5, longitude: 0 });
  });

  it('one contact card (contactMessage) and several (contactsArrayMessage)', async () => {
    const dana = { displayName: 'Dana', vcard: VCARD('Dana') };
    const one = await decodedBy(jid(ALICE), { contacts: { displayName: 'Dana', contacts: [dana] } }, ALICE);
    expect(one.content).toEqual({ kind: 'contact', contacts: [dana] });
    const list = { displayName: '2 contacts', contacts: [dana, { vcard: VCARD('Eve') }] };
    const two = await decodedBy(jid(ALICE), { contacts: list }, ALICE);
    expect(two.content).toEqual({
      kind: 'contact',
      displayName: '2 contacts',
      contacts: [dana, { vcard: VCARD('Eve') }],
    });
  });

  it('forwards, marked as forwarded', async () => {
    const text = await contactSays(ALICE, PHONE, 'pass it on');
    const forwardedText = await decodedBy(jid(BOB), { forward: text }, BOB);
    expect(forwardedText.content).toEqual({ kind: 'text', text: 'pass it on', forwarded: true });
    const location = await sim.admin.ok<{ id: string }>(`/contacts/${ALICE}/messages`, {
      to: PHONE,
      content: { type: 'location', latitude: 1, longitude: 2, name: 'Here' },
    });
    const forwardedLocation = await decodedBy(jid(BOB), { forward: await log.upserted(location.id) }, BOB);
    expect(forwardedLocation.content).toEqual({
      kind: 'location',
      latitude: 1,
      longitude: 2,
      name: 'Here',
      forwarded: true,
    });
  });

  it('takes wrappers off (ephemeralMessage), and names what it does not decode', async () => {
    const wrapped = { ephemeralMessage: { message: { conversation: 'disappearing' } } };
    const id = await client.sock.relayMessage(jid(ALICE), wrapped, {});
    const record = await receivedAt(ALICE, id);
    expect(record).toMatchObject({ type: 'ephemeral', content: { kind: 'text', text: 'disappearing' } });
    const poll = await decodedBy(
      jid(ALICE),
      { poll: { name: 'When?', values: ['1', '2'], selectableCount: 1 } },
      ALICE,
    );
    expect(poll.content).toEqual({ kind: 'other', type: 'pollCreationMessageV3' });
  });
});

describe('1:1: reactions, edits and revokes applied to their target', () => {
  it('a reaction to the contact’s own message shows on its sent record; a new one replaces it; "" takes it back', async () => {
    const target = await contactSays(ALICE, PHONE, 'react to this');
    const targetId = target.key.id ?? '';
    const like = await decodedBy(jid(ALICE), { react: { text: '👍', key: target.key } }, ALICE);
    expect(like.content).toEqual({ kind: 'reaction', targetId, emoji: '👍' });
    expect((await sentBy(ALICE, targetId))?.reactions).toEqual({ [jid(PHONE)]: '👍' });
    await decodedBy(jid(ALICE), { react: { text: '❤️', key: target.key } }, ALICE);
    expect((await sentBy(ALICE, targetId))?.reactions).toEqual({ [jid(PHONE)]: '❤️' });
    const removed = await decodedBy(jid(ALICE), { react: { text: '', key: target.key } }, ALICE);
    expect(removed.content).toEqual({ kind: 'reaction', targetId, emoji: '' });
    expect((await sentBy(ALICE, targetId))?.reactions).toEqual({});
  });

  it('a reaction to a message the contact received shows on that record', async () => {
    const target = await accountSends(jid(ALICE), { text: 'my own' });
    await decodedBy(jid(ALICE), { react: { text: '😂', key: target.key } }, ALICE);
    expect((await receivedAt(ALICE, target.key.id ?? '')).reactions).toEqual({ [jid(PHONE)]: '😂' });
  });

  it('an edit (protocolMessage, as Baileys sends it) changes the shown text, which a reply then quotes', async () => {
    const target = await accountSends(jid(ALICE), { text: 'at 5' });
    const targetId = target.key.id ?? '';
    const edit = await decodedBy(jid(ALICE), { text: 'at 6', edit: target.key }, ALICE);
    // The record's type and text stay as before: the outer field, no top-level text.
    expect(edit).toMatchObject({ type: 'protocol', content: { kind: 'edit', targetId, text: 'at 6' } });
    expect(edit.text).toBeUndefined();
    const edited = await receivedAt(ALICE, targetId);
    expect(edited).toMatchObject({
      text: 'at 5',
      editedText: 'at 6',
      content: { kind: 'text', text: 'at 5' },
    });
    const { id } = await sim.admin.ok<{ id: string }>(`/contacts/${ALICE}/messages`, {
      to: PHONE,
      content: { type: 'reply', quotedId: targetId, text: 'ok' },
    });
    const reply = await log.upserted(id);
    expect(textOf(reply.message?.extendedTextMessage?.contextInfo?.quotedMessage)).toBe('at 6');
  });

  it('an edit wrapped in editedMessage, as phones send it', async () => {
    const target = await accountSends(jid(ALICE), { text: 'draft' });
    const protocolMessage = {
      key: target.key,
      type: proto.Message.ProtocolMessage.Type.MESSAGE_EDIT,
      editedMessage: { conversation: 'final' },
      timestampMs: Date.now(),
    };
    const id = await client.sock.relayMessage(
      jid(ALICE),
      { editedMessage: { message: { protocolMessage } } },
      {},
    );
    const edit = await receivedAt(ALICE, id);
    expect(edit).toMatchObject({
      type: 'edited',
      content: { kind: 'edit', targetId: target.key.id, text: 'final' },
    });
    expect((await receivedAt(ALICE, target.key.id ?? '')).editedText).toBe('final');
  });

  it('a revoke marks the target revoked; the contact can no longer reply to it', async () => {
    const target = await accountSends(jid(ALICE), { text: 'wrong chat' });
    const targetId = target.key.id ?? '';
    const revoke = await decodedBy(jid(ALICE), { delete: target.key }, ALICE);
    expect(revoke.content).toEqual({ kind: 'revoke', targetId });
    expect(await receivedAt(ALICE, targetId)).toMatchObject({ revoked: true, text: 'wrong chat' });
    const reply = await sim.admin.post<{ error: string }>(`/contacts/${ALICE}/messages`, {
      to: PHONE,
      content: { type: 'reply', quotedId: targetId, text: 'what?' },
    });
    expect(reply).toEqual({ status: 400, body: { error: expect.stringMatching(/it was revoked/) } });
  });
});

describe('in a group', () => {
  let group: string;

  beforeAll(async () => {
    group = (await client.sock.groupCreate('Receive kinds', [jid(ALICE), jid(BOB)])).id;
  });

  it('every member decodes a text with mentions', async () => {
    const { key } = await accountSends(group, { text: 'hi @alice', mentions: [jid(ALICE)] });
    for (const number of [ALICE, BOB]) {
      const record = await receivedAt(number, key.id ?? '');
      expect(record).toMatchObject({ from: jid(PHONE), group, type: 'text' });
      expect(record.content).toEqual({ kind: 'text', text: 'hi @alice', mentions: [jid(ALICE)] });
    }
  });

  it('reactions land on a member’s own message and on the account’s', async () => {
    const alices = await contactSays(ALICE, group, 'from alice');
    const reaction = await decodedBy(group, { react: { text: '🎉', key: alices.key } }, ALICE, BOB);
    expect(reaction).toMatchObject({
      group,
      content: { kind: 'reaction', targetId: alices.key.id, emoji: '🎉' },
    });
    expect((await sentBy(ALICE, alices.key.id ?? ''))?.reactions).toEqual({ [jid(PHONE)]: '🎉' });
    const own = await accountSends(group, { text: 'from the account' });
    await decodedBy(group, { react: { text: '👀', key: own.key } }, ALICE, BOB);
    for (const number of [ALICE, BOB])
      expect((await receivedAt(number, own.key.id ?? '')).reactions).toEqual({ [jid(PHONE)]: '👀' });
  });

  it('an edit and a revoke apply for every member', async () => {
    const own = await accountSends(group, { text: 'meet at 7' });
    const ownId = own.key.id ?? '';
    const edit = await decodedBy(group, { text: 'meet at 8', edit: own.key }, ALICE, BOB);
    expect(edit.content).toEqual({ kind: 'edit', targetId: ownId, text: 'meet at 8' });
    for (const number of [ALICE, BOB]) expect((await receivedAt(number, ownId)).editedText).toBe('meet at 8');
    await decodedBy(group, { delete: own.key }, ALICE, BOB);
    for (const number of [ALICE, BOB]) expect((await receivedAt(number, ownId)).revoked).toBe(true);
  });

  it('a reaction, edit or revoke pointing at a message of another chat changes nothing', async () => {
    const direct = await accountSends(jid(ALICE), { text: 'just between us' });
    const directId = direct.key.id ?? '';
    const misplaced: AnyMessageContent[] = [
      { react: { text: '👍', key: direct.key } },
      { text: 'hijack', edit: direct.key },
      { delete: direct.key },
    ];
    for (const content of misplaced) {
      const record = await decodedBy(group, content, ALICE);
      expect(record.content).toMatchObject({ targetId: directId });
    }
    const untouched = await receivedAt(ALICE, directId);
    expect(untouched).not.toHaveProperty('reactions');
    expect(untouched).not.toHaveProperty('editedText');
    expect(untouched).not.toHaveProperty('revoked');
  });
});
