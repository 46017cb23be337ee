/** Signal-encrypted messages between the real Baileys client and simulated contacts, receipts and reconnects. */
import { jest } from '@jest/globals';
import {
  closeClient,
  type LinkedClient,
  linkByQr,
  nextOutcome,
  reconnect,
} from '#tests/wa-sim/harness/client.js';
import { restoreMemoryAuth } from '#tests/wa-sim/harness/memory-auth.js';
import { textOf, waitForStatus, waitForText } from '#tests/wa-sim/harness/messages.js';
import { startTestSim, type TestSim } from '#tests/wa-sim/harness/test-sim.js';
import { eventually, waitForEvent } from '#tests/wa-sim/harness/wait.js';

jest.setTimeout(30_000);

interface Received {
  id: string;
  from: string;
  type: string;
  text?: string;
  timestamp: number;
}

let sim: TestSim;
let client: LinkedClient;
const PHONE = '15550002001';

async function contactInbox(number: string): Promise<Received[]> {
  return (await sim.admin.get<Received[]>(`/contacts/${number}/messages`)).body;
}

async function receivedBy(number: string, text: string): Promise<Received> {
  return eventually(
    async () => (await contactInbox(number)).find((message) => message.text === text),
    10_000,
    text,
  );
}

beforeAll(async () => {
  sim = await startTestSim();
  client = await linkByQr(sim, { phone: PHONE });
});

afterAll(async () => {
  await closeClient(client.sock);
  await sim.stop();
});

describe('contact → client', () => {
  it('delivers a text as messages.upsert (pkmsg first, msg after)', async () => {
    const first = waitForText(client.sock, 'hello from a contact');
    const sent = await sim.admin.ok<{ id: string }>('/contacts/15550003001/messages', {
      to: PHONE,
      text: 'hello from a contact',
    });
    const message = await first;
    expect(message.key).toMatchObject({
      id: sent.id,
      remoteJid: '15550003001@s.whatsapp.net',
      fromMe: false,
    });
    expect(message.pushName).toBe('Contact 15550003001');
    const second = waitForText(client.sock, 'and a second one');
    await sim.admin.ok('/contacts/15550003001/messages', { to: PHONE, text: 'and a second one' });
    await second;
  });

  it('records the client receipts on the contact side', async () => {
    const arrived = waitForText(client.sock, 'receipt me');
    const { id } = await sim.admin.ok<{ id: string }>('/contacts/15550003001/messages', {
      to: PHONE,
      text: 'receipt me',
    });
    await arrived;
    await client.sock.readMessages([{ remoteJid: '15550003001@s.whatsapp.net', id, fromMe: false }]);
    const status = await eventually(async () => {
      const sent = (await sim.admin.get<Array<{ id: string; status: string }>>('/contacts/15550003001/sent'))
        .body;
      return sent.find((message) => message.id === id && message.status === 'read');
    });
    expect(status.status).toBe('read');
  });
});

describe('client → contact', () => {
  it('is decrypted by the contact, then shows delivery (3) and read (4) from its receipts', async () => {
    await sim.admin.ok('/contacts/15550003002/config', { autoDeliver: false });
    const sent = await client.sock.sendMessage('15550003002@s.whatsapp.net', { text: 'hi contact' });
    const id = sent?.key.id ?? '';
    const received = await receivedBy('15550003002', 'hi contact');
    expect(received).toMatchObject({ id, from: `${PHONE}@s.whatsapp.net`, type: 'text' });
    const delivered = waitForStatus(client.sock, id, 3);
    await sim.admin.ok('/contacts/15550003002/receipts', { to: PHONE, ids: [id], type: 'delivery' });
    expect(await delivered).toBe(3);
    const read = waitForStatus(client.sock, id, 4);
    await sim.admin.ok('/contacts/15550003002/receipts', { to: PHONE, ids: [id], type: 'read' });
    expect(await read).toBe(4);
  });

  it('sends automatic delivery and read receipts when the contact is configured to', async () => {
    await sim.admin.ok('/contacts/15550003003/config', { autoRead: true, receiptDelayMs: 50 });
    const sent = await client.sock.sendMessage('15550003003@s.whatsapp.net', { text: 'auto receipts' });
    expect(await waitForStatus(client.sock, sent?.key.id ?? '', 4)).toBe(4);
  });

  it('refuses receipts for messages the contact never received', async () => {
    const reply = await sim.admin.post('/contacts/15550003002/receipts', {
      to: PHONE,
      ids: ['NOPE'],
      type: 'read',
    });
    expect(reply.status).toBe(404);
  });
});

describe('reconnects', () => {
  it('reconnects from saved creds without a QR, and messages still decrypt both ways', async () => {
    const saved = client.auth.save();
    await closeClient(client.sock);
    const auth = restoreMemoryAuth(saved);
    const sock = await reconnect(sim.wsUrl, auth);
    client = { ...client, sock, auth };
    const inbound = waitForText(sock, 'after the restart');
    await sim.admin.ok('/contacts/15550003001/messages', { to: PHONE, text: 'after the restart' });
    await inbound;
    await sock.sendMessage('15550003001@s.whatsapp.net', { text: 'still encrypted' });
    await receivedBy('15550003001', 'still encrypted');
  });

  it('queues messages while the client is offline and delivers them at login', async () => {
    const saved = client.auth.save();
    await closeClient(client.sock);
    const { id } = await sim.admin.ok<{ id: string }>('/contacts/15550003004/messages', {
      to: PHONE,
      text: 'while away',
    });
    const auth = restoreMemoryAuth(saved);
    const { connect } = await import('#tests/wa-sim/harness/client.js');
    const sock = connect(sim.wsUrl, auth);
    const arrived = waitForText(sock, 'while away');
    expect(await nextOutcome(sock)).toEqual({ connection: 'open' });
    expect((await arrived).key.id).toBe(id);
    client = { ...client, sock, auth };
  });

  it('delivers again, at the next login, a message whose connection ended before the client confirmed it', async () => {
    // The client's state before the message: the restored client decrypts the second copy as it did the first.
    const saved = client.auth.save();
    // From now on nothing the client writes reaches the server, its receipt included (a process about to die).
    const socket = (client.sock.ws as unknown as { socket: { send(data: unknown, cb?: () => void): void } })
      .socket;
    socket.send = (_data, cb) => cb?.();
    const decrypted = waitForText(client.sock, 'never confirmed');
    const { id } = await sim.admin.ok<{ id: string }>('/contacts/15550003006/messages', {
      to: PHONE,
      text: 'never confirmed',
    });
    expect((await decrypted).key.id).toBe(id);
    const device = async () =>
      (
        await sim.admin.get<{ devices: { unackedMessages: number; offlineQueue: number }[] }>(
          `/accounts/${PHONE}`,
        )
      ).body.devices[0];
    expect(await device()).toMatchObject({ unackedMessages: 1, offlineQueue: 0 });

    const closed = nextOutcome(client.sock);
    await sim.admin.ok(`/accounts/${PHONE}/disconnect`);
    expect(await closed).toMatchObject({ connection: 'close' });
    await eventually(
      async () => (await device())?.offlineQueue === 1,
      5_000,
      'the message back in the queue',
    );
    expect((await device())?.unackedMessages).toBe(0);
    const auth = restoreMemoryAuth(saved);
    const { connect } = await import('#tests/wa-sim/harness/client.js');
    const sock = connect(sim.wsUrl, auth);
    const again = waitForEvent(
      sock,
      'messages.upsert',
      (upsert) =>
        upsert.messages.some((m) => m.key.id === id && textOf(m.message) === 'never confirmed') &&
        upsert.type,
    );
    expect(await nextOutcome(sock)).toEqual({ connection: 'open' });
    // Delivered as a message the network held while the device was away.
    expect(await again).toBe('append');
    await eventually(async () => (await device())?.unackedMessages === 0, 5_000, 'the receipt');
    expect((await device())?.offlineQueue).toBe(0);
    client = { ...client, sock, auth };
  });
});

describe('pre-keys', () => {
  it('asks the client for more one-time pre-keys when its stock runs low', async () => {
    const { body } = await sim.admin.post<{ devices: Array<{ preKeys: number }> }>(
      `/accounts/${PHONE}/pre-keys`,
      {
        keep: 2,
      },
    );
    expect(body.devices[0]?.preKeys).toBe(2);
    await eventually(async () => {
      const account = (await sim.admin.get<{ devices: Array<{ preKeys: number }> }>(`/accounts/${PHONE}`))
        .body;
      return (account.devices[0]?.preKeys ?? 0) >= 5;
    });
  });
});

describe('inline history bootstrap', () => {
  it('releases Baileys’ event buffer when the client waits for history (its default)', async () => {
    const other = await linkByQr(sim, { phone: '15550002002', history: 'inline' });
    // The phone's peer messages carry the push name; Baileys adopts it (`sock.user` is a stale copy).
    const name = await eventually(() => other.sock.authState.creds.me?.name);
    expect(name).toBe('Sim 15550002002');
    const inbound = waitForText(other.sock, 'buffer released', 5_000);
    await sim.admin.ok('/contacts/15550003005/messages', { to: '15550002002', text: 'buffer released' });
    expect(textOf((await inbound).message)).toBe('buffer released');
    await closeClient(other.sock);
  });
});
