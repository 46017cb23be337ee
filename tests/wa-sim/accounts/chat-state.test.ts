/**
 * The phone's chats reach the companions: a chat the phone archives, pins, mutes, marks unread or read, or deletes is
 * an app-state patch (`regular_low` / `regular_high`) that Baileys turns into `chats.update` or `chats.delete`; a
 * companion linked later gets the chat list in its history sync (`messaging-history.set`) and the chats' actions
 * through app-state sync. The chat states the account shows are recorded per chat.
 */
import { jest } from '@jest/globals';
import { decodePatches, newLTHashState, proto, toNumber } from '@whiskeysockets/baileys';
import pino from 'pino';
import { appStateSettled, ChatBook } from '#tests/wa-sim/harness/chats.js';
import { closeClient, type LinkedClient, linkByQr } from '#tests/wa-sim/harness/client.js';
import { waitForText } from '#tests/wa-sim/harness/messages.js';
import { startTestSim, type TestSim } from '#tests/wa-sim/harness/test-sim.js';
import { eventually } from '#tests/wa-sim/harness/wait.js';

jest.setTimeout(60_000);

const PHONE = '15550041001';
const ALICE = '15550041101';
const BOB = '15550041102';
const CAROL = '15550041103';
const jid = (number: string): string => `${number}@s.whatsapp.net`;
let sim: TestSim;
let gateway: LinkedClient;
const gatewayChats = new ChatBook();
let aliceMessageId = '';

/** The phone changes chat `chat` of the account; answers the route's body. */
async function phoneChanges(chat: string, change: Record<string, unknown>) {
  return sim.admin.ok<{
    chat: { archived: boolean };
    written: { collection: string; version: number }[];
    notified: number;
  }>(`/accounts/${PHONE}/chats/${chat}`, change);
}

beforeAll(async () => {
  sim = await startTestSim();
  for (const [number, name] of [
    [ALICE, 'Alice'],
    [BOB, 'Bob'],
    [CAROL, 'Carol'],
  ] as const) {
    await sim.admin.ok('/contacts', { number, name });
  }
  gateway = await linkByQr(sim, { phone: PHONE, onSocket: gatewayChats.attach });
  const arrived = waitForText(gateway.sock, 'hi from alice');
  aliceMessageId = (
    await sim.admin.ok<{ id: string }>(`/contacts/${ALICE}/messages`, { to: PHONE, text: 'hi from alice' })
  ).id;
  await arrived;
});

afterAll(async () => {
  await appStateSettled(sim.admin, PHONE, gateway.sock);
  await closeClient(gateway.sock);
  await sim.stop();
});

describe('the phone changes a chat', () => {
  it('knows the chat from its last message, unread', async () => {
    const chat = await sim.admin.chatWhen(PHONE, jid(ALICE), (each) => each.unreadCount === 1);
    expect(chat).toMatchObject({
      archived: false,
      pinned: null,
      muteEndTimestamp: null,
      read: false,
      markedUnread: false,
      deleted: false,
      lastMessage: { key: { remoteJid: jid(ALICE), fromMe: false, id: aliceMessageId } },
    });
  });

  it('archives and unarchives: chats.update archived, the message range naming the last message', async () => {
    const archived = await phoneChanges(jid(ALICE), { archived: true });
    expect(archived).toMatchObject({ written: [{ collection: 'regular_low', version: 1 }], notified: 1 });
    await gatewayChats.when(jid(ALICE), (chat) => chat.archived === true);
    // The mutation as a client decrypts it, every MAC checked.
    const account = sim.running.simulator.accounts.get(PHONE);
    const patches = (account?.appState.get('regular_low')?.patches ?? []).map((bytes) =>
      proto.SyncdPatch.decode(bytes),
    );
    const keyData = proto.Message.AppStateSyncKeyData.fromObject({ keyData: account?.appStateKey.keyData });
    const { mutationMap } = await decodePatches(
      'regular_low',
      patches,
      newLTHashState(),
      async () => keyData,
      {},
      undefined,
      pino({ level: 'silent' }),
      true,
    );
    const [mutation] = Object.values(mutationMap);
    expect(mutation?.index).toEqual(['archive', jid(ALICE)]);
    const range = mutation?.syncAction.value?.archiveChatAction?.messageRange;
    expect(range?.messages?.[0]?.key).toMatchObject({
      remoteJid: jid(ALICE),
      fromMe: false,
      id: aliceMessageId,
    });
    expect(toNumber(range?.lastMessageTimestamp)).toBeGreaterThan(0);
    await phoneChanges(jid(ALICE), { archived: false });
    await gatewayChats.when(jid(ALICE), (chat) => chat.archived === false);
  });

  it('pins and unpins: chats.update pinned (the pin time in ms), then null', async () => {
    const before = Date.now();
    await phoneChanges(jid(ALICE), { pinned: true });
    const pinned = await gatewayChats.when(jid(ALICE), (chat) => typeof chat.pinned === 'number');
    expect(pinned.pinned).toBeGreaterThanOrEqual(before);
    expect((await sim.admin.chatWhen(PHONE, jid(ALICE), () => true)).pinned).toBe(pinned.pinned);
    await phoneChanges(jid(ALICE), { pinned: false });
    await gatewayChats.when(jid(ALICE), (chat) => chat.pinned === null);
  });

  it('mutes until a time, for ever, and unmutes: chats.update muteEndTime', async () => {
    const until = Date.now() + 8 * 3600_000;
    const muted = await phoneChanges(jid(ALICE), { muteUntil: until });
    expect(muted.written).toEqual([{ collection: 'regular_high', version: 1 }]);
    await gatewayChats.when(jid(ALICE), (chat) => chat.muteEndTime === until);
    await phoneChanges(jid(ALICE), { muteUntil: -1 });
    await gatewayChats.when(jid(ALICE), (chat) => chat.muteEndTime === -1);
    await phoneChanges(jid(ALICE), { muteUntil: null });
    await gatewayChats.when(jid(ALICE), (chat) => chat.muteEndTime === null);
    expect((await sim.admin.chatWhen(PHONE, jid(ALICE), () => true)).muteEndTimestamp).toBeNull();
  });

  it('marks unread and read: chats.update unreadCount -1, then 0', async () => {
    await phoneChanges(jid(ALICE), { read: false });
    await gatewayChats.when(jid(ALICE), (chat) => chat.unreadCount === -1);
    expect(await sim.admin.chatWhen(PHONE, jid(ALICE), () => true)).toMatchObject({
      markedUnread: true,
      read: false,
    });
    await phoneChanges(jid(ALICE), { read: true });
    await gatewayChats.when(jid(ALICE), (chat) => chat.unreadCount === 0);
    expect(await sim.admin.chatWhen(PHONE, jid(ALICE), () => true)).toMatchObject({
      markedUnread: false,
      unreadCount: 0,
      read: true,
    });
  });

  it('changes several things at once, one patch per collection', async () => {
    const changed = await phoneChanges(jid(BOB), {
      archived: true,
      pinned: true,
      muteUntil: -1,
      read: false,
    });
    expect(changed.written.map((patch) => patch.collection).sort()).toEqual(['regular_high', 'regular_low']);
    await gatewayChats.when(
      jid(BOB),
      (chat) => chat.archived === true && typeof chat.pinned === 'number' && chat.muteEndTime === -1,
    );
    await gatewayChats.when(jid(BOB), (chat) => chat.unreadCount === -1);
  });

  it('deletes a chat: chats.delete; a new message brings it back, unread', async () => {
    await phoneChanges(jid(CAROL), { pinned: true });
    await phoneChanges(jid(CAROL), { deleted: true });
    await gatewayChats.deletion(jid(CAROL));
    expect(await sim.admin.chatWhen(PHONE, jid(CAROL), () => true)).toMatchObject({
      deleted: true,
      pinned: null,
      deletedAt: expect.any(Number),
    });
    await sim.admin.ok(`/contacts/${CAROL}/messages`, { to: PHONE, text: 'still there?' });
    await sim.admin.chatWhen(PHONE, jid(CAROL), (chat) => !chat.deleted && chat.unreadCount === 1);
    await phoneChanges(jid(CAROL), { deleted: true });
  });

  it('clears a chat: the phone shows it cleared and read; Baileys has no event for it', async () => {
    const cleared = await phoneChanges(jid(ALICE), { cleared: true });
    expect(cleared.written).toEqual([{ collection: 'regular_high', version: expect.any(Number) }]);
    expect(await sim.admin.chatWhen(PHONE, jid(ALICE), () => true)).toMatchObject({
      clearedAt: expect.any(Number),
      deleted: false,
    });
  });

  it('refuses bad input', async () => {
    const post = (chat: string, body: unknown, phone = PHONE) =>
      sim.admin.post(`/accounts/${phone}/chats/${chat}`, body);
    expect((await post(jid(ALICE), {})).status).toBe(400);
    expect((await post(jid(ALICE), { archived: 'yes' })).status).toBe(400);
    expect((await post(jid(ALICE), { muteUntil: 0 })).status).toBe(400);
    expect((await post(jid(ALICE), { archive: true })).status).toBe(400);
    expect((await post('alice', { archived: true })).status).toBe(400);
    expect((await post(jid('15559999999'), { archived: true })).status).toBe(404);
    expect((await post('120363000000000000@g.us', { archived: true })).status).toBe(404);
    expect((await post(jid(ALICE), { archived: true }, '15559999998')).status).toBe(404);
    expect((await sim.admin.get(`/accounts/${PHONE}/chats/${jid('15559999999')}`)).status).toBe(404);
  });
});

describe('chat states the account shows', () => {
  it('records typing and recording per chat, 1:1 and in a group', async () => {
    const group = await gateway.sock.groupCreate('Team', [jid(CAROL)]);
    await eventually(() => gateway.sock.authState.creds.me?.id);
    await gateway.sock.sendPresenceUpdate('composing', group.id);
    await gateway.sock.sendPresenceUpdate('recording', jid(BOB));
    const shown = await eventually(async () => {
      const { chatstates } = (
        await sim.admin.get<{ chatstates: Record<string, { state: string }> }>(
          `/accounts/${PHONE}/chatstates`,
        )
      ).body;
      return chatstates[group.id] && chatstates[jid(BOB)] ? chatstates : undefined;
    });
    expect(shown[group.id]).toMatchObject({ from: jid(PHONE), state: 'composing' });
    expect(shown[jid(BOB)]).toMatchObject({ state: 'recording' });
    const bob = (await sim.admin.get<{ lastChatstate?: { state: string } }>(`/contacts/${BOB}`)).body;
    expect(bob.lastChatstate?.state).toBe('recording');
  });
});

describe('a companion linked later', () => {
  it('gets the chat list in its history sync, with the phone’s flags and names', async () => {
    const book = new ChatBook();
    const checking = await linkByQr(sim, {
      phone: PHONE,
      history: 'inline',
      verifyAppStateMacs: true,
      onSocket: book.attach,
    });
    try {
      const bob = await book.historyChat(jid(BOB));
      expect(bob).toMatchObject({ name: 'Bob', archived: true, markedAsUnread: true });
      expect(bob.pinned).toBeGreaterThan(0);
      expect(toNumber(bob.muteEndTime)).not.toBe(0);
      const alice = await book.historyChat(jid(ALICE));
      expect(alice).toMatchObject({ name: 'Alice', archived: false });
      expect(toNumber(alice.conversationTimestamp)).toBeGreaterThan(0);
      const groups = book.history.filter((chat) => chat.id?.endsWith('@g.us'));
      expect(groups.map((chat) => chat.name)).toEqual(['Team']);
      // Deleted on the phone: not in the list.
      expect(book.history.some((chat) => chat.id === jid(CAROL))).toBe(false);
    } finally {
      await appStateSettled(sim.admin, PHONE, checking.sock);
      await closeClient(checking.sock);
    }
  });

  it('with history sync off, still learns the chats’ actions through app-state sync', async () => {
    const book = new ChatBook();
    const late = await linkByQr(sim, { phone: PHONE, onSocket: book.attach });
    try {
      await book.when(
        jid(BOB),
        (chat) => chat.archived === true && typeof chat.pinned === 'number' && chat.muteEndTime === -1,
      );
      expect(book.history).toEqual([]);
    } finally {
      await appStateSettled(sim.admin, PHONE, late.sock);
      await closeClient(late.sock);
    }
  });
});
