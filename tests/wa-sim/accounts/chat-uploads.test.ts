/**
 * A companion's chat actions reach the phone: `sock.chatModify(…)` uploads an app-state patch, which the phone opens
 * with the account's key (every MAC checked) and applies to its chats, and the account's other companions are told.
 * A patch whose value or patch MAC does not hold is refused (`<collection type=error><error code=400>`) and changes
 * nothing. Read receipts a companion sends mark the chat read on the phone.
 */
import { jest } from '@jest/globals';
import {
  type BinaryNode,
  chatModificationToAppPatch,
  encodeSyncdPatch,
  getBinaryNodeChild,
  newLTHashState,
  proto,
  type WAMessage,
  type WASocket,
} from '@whiskeysockets/baileys';
import { appStateSettled, ChatBook } from '#tests/wa-sim/harness/chats.js';
import { closeClient, type LinkedClient, linkByQr } from '#tests/wa-sim/harness/client.js';
import { waitForText } from '#tests/wa-sim/harness/messages.js';
import { startTestSim, type TestSim } from '#tests/wa-sim/harness/test-sim.js';

jest.setTimeout(60_000);

const PHONE = '15550042001';
const ALICE = '15550042101';
const BOB = '15550042102';
const jid = (number: string): string => `${number}@s.whatsapp.net`;
let sim: TestSim;
let gateway: LinkedClient;
let other: LinkedClient;
const otherChats = new ChatBook();
let fromAlice: WAMessage;

/** Contact `number` sends `text` to the account; answers the message as the gateway's Baileys got it. */
async function contactWrites(number: string, text: string): Promise<WAMessage> {
  const arrived = waitForText(gateway.sock, text);
  await sim.admin.ok(`/contacts/${number}/messages`, { to: PHONE, text });
  return arrived;
}

/**
 * Uploads Baileys' own patch for archiving `chat`, after `tamper` changed it: what `chatModify` sends, built by hand
 * so it can be broken. The socket's stored app state is left as it was. Answers the server's `<collection>`.
 */
async function uploadArchive(
  sock: WASocket,
  chat: string,
  tamper: (patch: proto.ISyncdPatch) => void,
): Promise<BinaryNode | undefined> {
  const create = chatModificationToAppPatch({ archive: true, lastMessages: [] }, chat);
  await sock.resyncAppState([create.type], false);
  const keys = sock.authState.keys;
  const { [create.type]: current } = await keys.get('app-state-sync-version', [create.type]);
  const keyId = sock.authState.creds.myAppStateKeyId ?? '';
  const { patch, state } = await encodeSyncdPatch(
    create,
    keyId,
    current ?? newLTHashState(),
    async (id) => (await keys.get('app-state-sync-key', [id]))[id],
  );
  tamper(patch);
  const answer = await sock.query({
    tag: 'iq',
    attrs: { to: 's.whatsapp.net', type: 'set', xmlns: 'w:sync:app:state' },
    content: [
      {
        tag: 'sync',
        attrs: {},
        content: [
          {
            tag: 'collection',
            attrs: { name: create.type, version: String(state.version - 1), return_snapshot: 'false' },
            content: [{ tag: 'patch', attrs: {}, content: proto.SyncdPatch.encode(patch).finish() }],
          },
        ],
      },
    ],
  });
  return getBinaryNodeChild(getBinaryNodeChild(answer, 'sync'), 'collection');
}

async function collectionVersion(name: string): Promise<number | undefined> {
  const view = await sim.admin.get<{ appState: Record<string, { version: number }> }>(`/accounts/${PHONE}`);
  return view.body.appState[name]?.version;
}

beforeAll(async () => {
  sim = await startTestSim();
  await sim.admin.ok('/contacts', { number: ALICE, name: 'Alice' });
  await sim.admin.ok('/contacts', { number: BOB, name: 'Bob' });
  gateway = await linkByQr(sim, { phone: PHONE });
  other = await linkByQr(sim, { phone: PHONE, verifyAppStateMacs: true, onSocket: otherChats.attach });
  fromAlice = await contactWrites(ALICE, 'hello gateway');
});

afterAll(async () => {
  for (const client of [gateway, other]) {
    await appStateSettled(sim.admin, PHONE, client.sock);
    await closeClient(client.sock);
  }
  await sim.stop();
});

describe('a companion changes a chat', () => {
  it('archives with the last message: the phone shows it, the other companion gets chats.update', async () => {
    await gateway.sock.chatModify({ archive: true, lastMessages: [fromAlice] }, jid(ALICE));
    expect(await sim.admin.chatWhen(PHONE, jid(ALICE), (chat) => chat.archived)).toMatchObject({
      archived: true,
      deleted: false,
    });
    await otherChats.when(jid(ALICE), (chat) => chat.archived === true);
    await gateway.sock.chatModify({ archive: false, lastMessages: [fromAlice] }, jid(ALICE));
    await sim.admin.chatWhen(PHONE, jid(ALICE), (chat) => !chat.archived);
  });

  it('pins and unpins, a 1:1 chat and a group', async () => {
    const before = Date.now();
    await gateway.sock.chatModify({ pin: true }, jid(ALICE));
    const pinned = await sim.admin.chatWhen(PHONE, jid(ALICE), (chat) => chat.pinned !== null);
    expect(pinned.pinned).toBeGreaterThanOrEqual(before);
    await gateway.sock.chatModify({ pin: false }, jid(ALICE));
    await sim.admin.chatWhen(PHONE, jid(ALICE), (chat) => chat.pinned === null);
    const group = await gateway.sock.groupCreate('Crew', [jid(BOB)]);
    await gateway.sock.chatModify({ pin: true }, group.id);
    await sim.admin.chatWhen(PHONE, group.id, (chat) => chat.pinned !== null);
  });

  it('mutes until a time and unmutes', async () => {
    const until = Date.now() + 3600_000;
    await gateway.sock.chatModify({ mute: until }, jid(ALICE));
    await sim.admin.chatWhen(PHONE, jid(ALICE), (chat) => chat.muteEndTimestamp === until);
    await otherChats.when(jid(ALICE), (chat) => chat.muteEndTime === until);
    await gateway.sock.chatModify({ mute: null }, jid(ALICE));
    await sim.admin.chatWhen(PHONE, jid(ALICE), (chat) => chat.muteEndTimestamp === null);
  });

  it('marks unread and read', async () => {
    await gateway.sock.chatModify({ markRead: false, lastMessages: [fromAlice] }, jid(ALICE));
    expect(await sim.admin.chatWhen(PHONE, jid(ALICE), (chat) => chat.markedUnread)).toMatchObject({
      read: false,
    });
    await gateway.sock.chatModify({ markRead: true, lastMessages: [fromAlice] }, jid(ALICE));
    expect(await sim.admin.chatWhen(PHONE, jid(ALICE), (chat) => chat.read)).toMatchObject({
      markedUnread: false,
      unreadCount: 0,
    });
  });

  it('clears and deletes', async () => {
    await gateway.sock.chatModify({ clear: true, lastMessages: [fromAlice] }, jid(ALICE));
    await sim.admin.chatWhen(PHONE, jid(ALICE), (chat) => chat.clearedAt !== null);
    await gateway.sock.chatModify({ delete: true, lastMessages: [fromAlice] }, jid(ALICE));
    await sim.admin.chatWhen(PHONE, jid(ALICE), (chat) => chat.deleted);
    await otherChats.deletion(jid(ALICE));
  });

  it('reads messages (read receipts): the phone shows the chat read', async () => {
    const message = await contactWrites(BOB, 'are you there?');
    await sim.admin.chatWhen(PHONE, jid(BOB), (chat) => chat.unreadCount === 1);
    await gateway.sock.readMessages([message.key]);
    await sim.admin.chatWhen(PHONE, jid(BOB), (chat) => chat.read);
  });
});

describe('patches the phone cannot verify', () => {
  it('refuses a tampered value MAC, then a tampered patch MAC; the genuine patch goes through', async () => {
    const version = await collectionVersion('regular_low');
    const flipLast = (bytes: Uint8Array | null | undefined): void => {
      if (bytes) bytes[bytes.length - 1] = (bytes[bytes.length - 1] ?? 0) ^ 0xff;
    };
    const badValue = await uploadArchive(gateway.sock, jid(BOB), (patch) =>
      flipLast(patch.mutations?.[0]?.record?.value?.blob),
    );
    expect(badValue?.attrs).toMatchObject({ name: 'regular_low', type: 'error' });
    expect(getBinaryNodeChild(badValue, 'error')?.attrs.code).toBe('400');
    const badPatch = await uploadArchive(gateway.sock, jid(BOB), (patch) => flipLast(patch.patchMac));
    expect(getBinaryNodeChild(badPatch, 'error')?.attrs.code).toBe('400');
    expect(await collectionVersion('regular_low')).toBe(version);
    expect((await sim.admin.chatWhen(PHONE, jid(BOB), () => true)).archived).toBe(false);
    const genuine = await uploadArchive(gateway.sock, jid(BOB), () => undefined);
    expect(genuine?.attrs).toEqual({ name: 'regular_low', version: String((version ?? 0) + 1) });
    await sim.admin.chatWhen(PHONE, jid(BOB), (chat) => chat.archived);
    await otherChats.when(jid(BOB), (chat) => chat.archived === true);
  });
});
