/**
 * Labels both ways over app-state sync (collection `regular`, real encryption and MACs): a label a companion creates,
 * deletes, puts on a chat or takes off (`sock.addLabel`, `addChatLabel`, `removeChatLabel`) shows on the phone and
 * reaches the account's other companion as `labels.edit` / `labels.association`; a label the phone edits, or puts on
 * a chat, reaches the companions the same way, written whole; a companion linked later learns them all by syncing.
 */
import { jest } from '@jest/globals';
import { appStateSettled } from '#tests/wa-sim/harness/chats.js';
import { closeClient, type LinkedClient, linkByQr } from '#tests/wa-sim/harness/client.js';
import { LabelBook } from '#tests/wa-sim/harness/labels.js';
import { startTestSim, type TestSim } from '#tests/wa-sim/harness/test-sim.js';

jest.setTimeout(60_000);

const PHONE = '15550043001';
const ALICE = '15550043101';
const BOB = '15550043102';
const jid = (number: string): string => `${number}@s.whatsapp.net`;
let sim: TestSim;
let gateway: LinkedClient;
let other: LinkedClient;
const gatewayLabels = new LabelBook();
const otherLabels = new LabelBook();

/** The phone edits label `id`; answers the route's body. */
function phoneEdits(id: string, edit: Record<string, unknown>) {
  return sim.admin.ok<{ written: { collection: string; version: number }[]; notified: number }>(
    `/accounts/${PHONE}/labels/${id}`,
    edit,
  );
}

/** The phone puts labels on chat `chat` or takes them off (and may change the chat too); answers the route's body. */
function phoneTags(chat: string, change: Record<string, unknown>) {
  return sim.admin.ok<{ written: { collection: string; version: number }[] }>(
    `/accounts/${PHONE}/chats/${chat}`,
    change,
  );
}

/** The label ids tagging chat `chat` on the phone. */
async function tagsAtPhone(chat: string): Promise<string[] | undefined> {
  return (await sim.admin.labels(PHONE)).chats[chat];
}

beforeAll(async () => {
  sim = await startTestSim();
  await sim.admin.ok('/contacts', { number: ALICE, name: 'Alice' });
  await sim.admin.ok('/contacts', { number: BOB, name: 'Bob' });
  gateway = await linkByQr(sim, { phone: PHONE, onSocket: gatewayLabels.attach });
  other = await linkByQr(sim, { phone: PHONE, verifyAppStateMacs: true, onSocket: otherLabels.attach });
});

afterAll(async () => {
  for (const client of [gateway, other]) {
    await appStateSettled(sim.admin, PHONE, client.sock);
    await closeClient(client.sock);
  }
  await sim.stop();
});

describe('a companion edits labels', () => {
  it('creates a label: the phone shows it, the other companion gets labels.edit', async () => {
    await gateway.sock.addLabel('', { id: '5', name: 'VIP', color: 3, deleted: false });
    expect(await sim.admin.labelWhen(PHONE, '5', (label) => label.name === 'VIP')).toEqual({
      id: '5',
      name: 'VIP',
      color: 3,
      deleted: false,
      chats: [],
    });
    await otherLabels.edit('5', (label) => label.name === 'VIP' && label.color === 3 && !label.deleted);
    const view = await sim.admin.get<{ appState: Record<string, { version: number }> }>(`/accounts/${PHONE}`);
    expect(view.body.appState.regular?.version).toBeGreaterThan(0);
  });

  it('puts the label on a chat and takes it off: the phone shows it, labels.association add and remove', async () => {
    await gateway.sock.addChatLabel(jid(ALICE), '5');
    await sim.admin.labelWhen(PHONE, '5', (label) => label.chats.includes(jid(ALICE)));
    expect(await tagsAtPhone(jid(ALICE))).toEqual(['5']);
    await otherLabels.association('add', '5', jid(ALICE));
    await gateway.sock.removeChatLabel(jid(ALICE), '5');
    await sim.admin.labelWhen(PHONE, '5', (label) => label.chats.length === 0);
    expect(await tagsAtPhone(jid(ALICE))).toBeUndefined();
    await otherLabels.association('remove', '5', jid(ALICE));
  });

  it('deletes a label: the phone shows it deleted, its tags as the app state keeps them; labels.edit deleted', async () => {
    await gateway.sock.addChatLabel(jid(BOB), '5');
    await sim.admin.labelWhen(PHONE, '5', (label) => label.chats.includes(jid(BOB)));
    await gateway.sock.addLabel('', { id: '5', deleted: true });
    // The value replaces the label whole: Baileys' deletion names no name or colour.
    expect(await sim.admin.labelWhen(PHONE, '5', (label) => label.deleted)).toEqual({
      id: '5',
      name: '',
      color: 0,
      deleted: true,
      chats: [jid(BOB)],
    });
    await otherLabels.edit('5', (label) => label.deleted);
  });
});

describe('the phone edits labels', () => {
  it('creates a label, then recolours it: labels.edit with the whole label', async () => {
    const created = await phoneEdits('7', { name: 'Lead', color: 2 });
    expect(created).toMatchObject({ written: [{ collection: 'regular' }], notified: 2 });
    await gatewayLabels.edit('7', (label) => label.name === 'Lead' && label.color === 2 && !label.deleted);
    await otherLabels.edit('7', (label) => label.name === 'Lead');
    await phoneEdits('7', { color: 4 });
    await gatewayLabels.edit('7', (label) => label.color === 4 && label.name === 'Lead');
    expect(await sim.admin.labelWhen(PHONE, '7', () => true)).toMatchObject({ name: 'Lead', color: 4 });
  });

  it('puts it on a chat and takes it off with another change: labels.association add and remove', async () => {
    const tagged = await phoneTags(jid(ALICE), { labels: { add: ['7'] } });
    expect(tagged.written).toEqual([{ collection: 'regular', version: expect.any(Number) }]);
    await gatewayLabels.association('add', '7', jid(ALICE));
    expect(await tagsAtPhone(jid(ALICE))).toEqual(['7']);
    const untagged = await phoneTags(jid(ALICE), { archived: true, labels: { remove: ['7'] } });
    expect(untagged.written.map((patch) => patch.collection).sort()).toEqual(['regular', 'regular_low']);
    await gatewayLabels.association('remove', '7', jid(ALICE));
    await otherLabels.association('remove', '7', jid(ALICE));
    expect(await tagsAtPhone(jid(ALICE))).toBeUndefined();
    expect((await sim.admin.chatWhen(PHONE, jid(ALICE), () => true)).archived).toBe(true);
  });

  it('deletes it: labels.edit deleted, with its name, and its tags taken off', async () => {
    await phoneTags(jid(BOB), { labels: { add: ['7'] } });
    await gatewayLabels.association('add', '7', jid(BOB));
    const deleted = await phoneEdits('7', { deleted: true });
    expect(deleted.written).toEqual([{ collection: 'regular', version: expect.any(Number) }]);
    await gatewayLabels.edit('7', (label) => label.deleted && label.name === 'Lead');
    await gatewayLabels.association('remove', '7', jid(BOB));
    expect(await sim.admin.labelWhen(PHONE, '7', () => true)).toMatchObject({ deleted: true, chats: [] });
    expect(await tagsAtPhone(jid(BOB))).toEqual(['5']);
  });

  it('refuses bad input', async () => {
    const edit = (id: string, body: unknown, phone = PHONE) =>
      sim.admin.post(`/accounts/${phone}/labels/${id}`, body);
    const tag = (body: unknown) => sim.admin.post(`/accounts/${PHONE}/chats/${jid(ALICE)}`, body);
    expect((await edit('8', { color: 1 })).status).toBe(400);
    expect((await edit('8', {})).status).toBe(400);
    expect((await edit('8', { name: ' ' })).status).toBe(400);
    expect((await edit('8', { name: 'X', color: 20 })).status).toBe(400);
    expect((await edit('8', { name: 'X', colour: 1 })).status).toBe(400);
    expect((await edit('eight', { name: 'X' })).status).toBe(400);
    expect((await edit('8', { deleted: true })).status).toBe(404);
    expect((await edit('8', { name: 'X' }, '15559999998')).status).toBe(404);
    expect((await sim.admin.get(`/accounts/${PHONE}/labels/8`)).status).toBe(404);
    expect((await tag({ labels: {} })).status).toBe(400);
    expect((await tag({ labels: { add: [] } })).status).toBe(400);
    expect((await tag({ labels: { add: ['8'] } })).status).toBe(404);
    // Deleted: the phone no longer offers it.
    expect((await tag({ labels: { add: ['7'] } })).status).toBe(404);
    expect((await sim.admin.labels(PHONE)).chats).toEqual({ [jid(BOB)]: ['5'] });
  });
});

describe('a companion linked later', () => {
  it('learns the labels and their chats through app-state sync', async () => {
    await phoneEdits('9', { name: 'Paid', color: 5 });
    await phoneTags(jid(BOB), { labels: { add: ['9'] } });
    const book = new LabelBook();
    const late = await linkByQr(sim, { phone: PHONE, verifyAppStateMacs: true, onSocket: book.attach });
    try {
      await book.edit('9', (label) => label.name === 'Paid' && label.color === 5);
      await book.edit('7', (label) => label.deleted);
      await book.association('add', '9', jid(BOB));
      await book.association('remove', '7', jid(BOB));
    } finally {
      await appStateSettled(sim.admin, PHONE, late.sock);
      await closeClient(late.sock);
    }
  });
});
