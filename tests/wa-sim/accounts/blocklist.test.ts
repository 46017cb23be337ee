/**
 * The blocklist over the wire, with two companions of one account: Baileys' `updateBlockStatus` (LID + `pn_jid`)
 * and `fetchBlocklist`, the `blocklist.update` the other companion hears, the phone blocking through the admin API,
 * and what blocking does: a blocked contact's messages and calls never reach the account until it is unblocked.
 */
import { jest } from '@jest/globals';
import { S_WHATSAPP_NET, type WASocket } from '@whiskeysockets/baileys';
import {
  closeClient,
  connect,
  type LinkedClient,
  linkByQr,
  nextOutcome,
} from '#tests/wa-sim/harness/client.js';
import { restoreMemoryAuth } from '#tests/wa-sim/harness/memory-auth.js';
import { MessageLog, textOf, waitForText } from '#tests/wa-sim/harness/messages.js';
import { startTestSim, type TestSim } from '#tests/wa-sim/harness/test-sim.js';
import { waitForEvent } from '#tests/wa-sim/harness/wait.js';

jest.setTimeout(30_000);

interface BlocklistView {
  phone: string;
  dhash: string;
  blocked: Array<{ number: string; jid: string; lid: string; blockedAt: string }>;
}

let sim: TestSim;
let first: LinkedClient;
let second: LinkedClient;
let firstLog: MessageLog;
const PHONE = '15550020001';
const ALICE = '15550020101';
const BOB = '15550020102';
const lids: Record<string, string> = {};
const jid = (number: string): string => `${number}@s.whatsapp.net`;

/** The next `blocklist.update` `sock` emits. */
function nextBlocklistUpdate(sock: WASocket): Promise<{ blocklist: string[]; type: 'add' | 'remove' }> {
  return waitForEvent(sock, 'blocklist.update', (update) => update);
}

async function phoneBlocklist(): Promise<BlocklistView> {
  return (await sim.admin.get<BlocklistView>(`/accounts/${PHONE}/blocklist`)).body;
}

beforeAll(async () => {
  sim = await startTestSim();
  for (const number of [ALICE, BOB]) {
    const contact = await sim.admin.ok<{ lid: string }>('/contacts', { number });
    lids[number] = contact.lid;
  }
  first = await linkByQr(sim, { phone: PHONE });
  second = await linkByQr(sim, { phone: PHONE });
  firstLog = new MessageLog(first.sock);
});

afterAll(async () => {
  firstLog.stop();
  await closeClient(first.sock);
  await closeClient(second.sock);
  await sim.stop();
});

describe('blocking from a companion', () => {
  it('blocks by LID: the phone’s list shows the contact and the other companion hears blocklist.update', async () => {
    const heard = nextBlocklistUpdate(second.sock);
    await first.sock.updateBlockStatus(jid(ALICE), 'block');
    expect(await heard).toEqual({ blocklist: [lids[ALICE]], type: 'add' });
    const view = await phoneBlocklist();
    expect(view.blocked).toEqual([
      { number: ALICE, jid: jid(ALICE), lid: lids[ALICE], blockedAt: expect.any(String) },
    ]);
    expect(await first.sock.fetchBlocklist()).toEqual([lids[ALICE]]);
    expect(await second.sock.fetchBlocklist()).toEqual([lids[ALICE]]);
  });

  it('drops the blocked contact’s texts and calls: the sender keeps one tick', async () => {
    const marker = waitForText(first.sock, 'bob still gets through');
    const sent = await sim.admin.ok<{ devices: number }>(`/contacts/${ALICE}/messages`, {
      to: PHONE,
      text: 'while blocked',
    });
    expect(sent.devices).toBe(0);
    // Delivery keeps order on a connection: once Bob's later text is in, Alice's would have been too.
    await sim.admin.ok(`/contacts/${BOB}/messages`, { to: PHONE, text: 'bob still gets through' });
    await marker;
    expect(firstLog.upserts.map((message) => textOf(message.message))).not.toContain('while blocked');
    const [aliceSent] = (await sim.admin.sent(ALICE)).filter((message) => message.text === 'while blocked');
    expect(aliceSent?.status).toBe('sent');
    const call = await sim.admin.ok<{ devices: number }>(`/contacts/${ALICE}/call`, { to: PHONE });
    expect(call.devices).toBe(0);
  });

  it('unblocks: the list empties, the other companion hears it and texts arrive again', async () => {
    const heard = nextBlocklistUpdate(second.sock);
    await first.sock.updateBlockStatus(jid(ALICE), 'unblock');
    expect(await heard).toEqual({ blocklist: [lids[ALICE]], type: 'remove' });
    expect((await phoneBlocklist()).blocked).toEqual([]);
    expect(await first.sock.fetchBlocklist()).toEqual([]);
    const arrived = waitForText(first.sock, 'after the unblock');
    const sent = await sim.admin.ok<{ devices: number }>(`/contacts/${ALICE}/messages`, {
      to: PHONE,
      text: 'after the unblock',
    });
    expect(sent.devices).toBe(2);
    await arrived;
  });

  it('refuses the old phone-number form of a block (400 bad-request), as WhatsApp now does', async () => {
    const refused = first.sock.query({
      tag: 'iq',
      attrs: { xmlns: 'blocklist', to: S_WHATSAPP_NET, type: 'set' },
      content: [{ tag: 'item', attrs: { action: 'block', jid: jid(BOB) } }],
    });
    await expect(refused).rejects.toMatchObject({ data: 400 });
    expect((await phoneBlocklist()).blocked).toEqual([]);
  });
});

describe('blocking from the phone', () => {
  it('tells every companion; blocking again changes nothing', async () => {
    const heardByFirst = nextBlocklistUpdate(first.sock);
    const heardBySecond = nextBlocklistUpdate(second.sock);
    const reply = await sim.admin.ok(`/accounts/${PHONE}/blocklist`, { number: BOB, action: 'block' });
    expect(reply).toEqual({ phone: PHONE, number: BOB, action: 'block', changed: 1, notified: 2 });
    expect(await heardByFirst).toEqual({ blocklist: [lids[BOB]], type: 'add' });
    expect(await heardBySecond).toEqual({ blocklist: [lids[BOB]], type: 'add' });
    // The list names LIDs; the number behind a saved contact's came with the address book.
    const [listed] = await first.sock.fetchBlocklist();
    expect(await first.sock.signalRepository.lidMapping.getPNForLID(listed ?? '')).toBe(
      `${BOB}:0@s.whatsapp.net`,
    );
    const again = await sim.admin.ok(`/accounts/${PHONE}/blocklist`, { number: BOB, action: 'block' });
    expect(again).toMatchObject({ changed: 0, notified: 0 });
  });

  it('answers 404 for an unknown number or account and 400 for a bad action', async () => {
    const unknown = await sim.admin.post(`/accounts/${PHONE}/blocklist`, {
      number: '15557770000',
      action: 'block',
    });
    expect(unknown.status).toBe(404);
    expect((await sim.admin.get('/accounts/15559999999/blocklist')).status).toBe(404);
    const bad = await sim.admin.post<{ error: string }>(`/accounts/${PHONE}/blocklist`, {
      number: BOB,
      action: 'mute',
    });
    expect(bad.status).toBe(400);
    expect(bad.body.error).toMatch(/^action: /);
  });

  it('keeps the list across a reconnect and queues the notification for an offline companion', async () => {
    await closeClient(second.sock);
    await sim.admin.ok(`/accounts/${PHONE}/blocklist`, { number: ALICE, action: 'block' });
    const sock = connect(sim.wsUrl, restoreMemoryAuth(second.auth.save()));
    const heard = nextBlocklistUpdate(sock);
    expect(await nextOutcome(sock)).toEqual({ connection: 'open' });
    second = { ...second, sock };
    expect(await heard).toEqual({ blocklist: [lids[ALICE]], type: 'add' });
    expect((await sock.fetchBlocklist()).sort()).toEqual([lids[ALICE], lids[BOB]].sort());
  });
});
