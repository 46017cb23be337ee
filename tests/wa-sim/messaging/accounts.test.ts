/** Two linked accounts (two real Baileys clients) talking through the simulator: fan-out and receipts. */
import { jest } from '@jest/globals';
import { closeClient, type LinkedClient, linkByQr } from '#tests/wa-sim/harness/client.js';
import { waitForStatus, waitForText } from '#tests/wa-sim/harness/messages.js';
import { startTestSim, type TestSim } from '#tests/wa-sim/harness/test-sim.js';

jest.setTimeout(30_000);

let sim: TestSim;
let alice: LinkedClient;
let bob: LinkedClient;
const ALICE = '15550010001@s.whatsapp.net';
const BOB = '15550010002@s.whatsapp.net';

beforeAll(async () => {
  sim = await startTestSim();
  alice = await linkByQr(sim, { phone: '15550010001' });
  bob = await linkByQr(sim, { phone: '15550010002' });
});

afterAll(async () => {
  await closeClient(alice.sock);
  await closeClient(bob.sock);
  await sim.stop();
});

describe('account to account', () => {
  it('forwards a message to the other account’s companion and its receipt back', async () => {
    const arrived = waitForText(bob.sock, 'hi bob');
    const sent = await alice.sock.sendMessage(BOB, { text: 'hi bob' });
    const message = await arrived;
    expect(message.key).toMatchObject({ remoteJid: ALICE, fromMe: false });
    expect(await waitForStatus(alice.sock, sent?.key.id ?? '', 3)).toBe(3);
  });

  it('answers back over the session the first message set up', async () => {
    const arrived = waitForText(alice.sock, 'hi alice');
    await bob.sock.sendMessage(ALICE, { text: 'hi alice' });
    expect((await arrived).key.remoteJid).toBe(BOB);
  });

  it('delivers a group message between accounts with sender keys', async () => {
    const group = await alice.sock.groupCreate('Two accounts', [BOB]);
    const arrived = waitForText(bob.sock, 'group hello');
    await alice.sock.sendMessage(group.id, { text: 'group hello' });
    expect((await arrived).key).toMatchObject({
      remoteJid: group.id,
      participant: expect.stringMatching(/^15550010001/),
    });
  });
});
