/** Linking the real Baileys client: QR (raw string and PNG data URL), pairing code, and their failure modes. */
import { jest } from '@jest/globals';
import { closeClient, connect, linkByCode, linkByQr, nextOutcome } from '#tests/wa-sim/harness/client.js';
import { createMemoryAuth } from '#tests/wa-sim/harness/memory-auth.js';
import { startTestSim, type TestSim } from '#tests/wa-sim/harness/test-sim.js';
import { waitForEvent } from '#tests/wa-sim/harness/wait.js';

jest.setTimeout(30_000);

let sim: TestSim;

beforeAll(async () => {
  sim = await startTestSim();
});

afterAll(async () => {
  await sim.stop();
});

describe('QR linking', () => {
  it('links from the raw QR string, restarts with 515 and opens', async () => {
    const client = await linkByQr(sim, { phone: '15550001001' });
    expect(client.jid).toBe('15550001001:1@s.whatsapp.net');
    expect(client.sock.user?.id).toBe('15550001001:1@s.whatsapp.net');
    expect(client.sock.user?.lid).toMatch(/^\d+:1@lid$/);
    const { body } =
      await sim.admin.get<Array<{ phone: string; devices: Array<{ connected: boolean }> }>>(
        '/accounts/15550001001',
      );
    expect(body).toMatchObject({ phone: '15550001001', devices: [{ connected: true, liveConnections: 1 }] });
    await closeClient(client.sock);
  });

  it('links from a PNG data URL and allocates a phone number when none is given', async () => {
    const client = await linkByQr(sim, { asDataUrl: true });
    expect(client.phone).toMatch(/^1555\d{7}$/);
    expect(client.sock.user?.id).toBe(`${client.phone}:1@s.whatsapp.net`);
    await closeClient(client.sock);
  });

  it('links a second companion to the same account as device 2', async () => {
    const first = await linkByQr(sim, { phone: '15550001003' });
    const second = await linkByQr(sim, { phone: '15550001003' });
    expect(second.jid).toBe('15550001003:2@s.whatsapp.net');
    await closeClient(first.sock);
    await closeClient(second.sock);
  });

  it('answers 404 for a QR no companion is showing', async () => {
    const reply = await sim.admin.post('/mock-phone/scan-qr', {
      qr: 'https://wa.me/settings/linked_devices#nope,a,b,c,1',
    });
    expect(reply.status).toBe(404);
  });
});

describe('pairing-code linking', () => {
  it('links with the code Baileys shows, then opens after the restart', async () => {
    const client = await linkByCode(sim, '15550001002');
    expect(client.sock.user?.id).toBe('15550001002:1@s.whatsapp.net');
    await closeClient(client.sock);
  });

  it('refuses a wrong code and leaves the companion unlinked', async () => {
    const sock = connect(sim.wsUrl, createMemoryAuth());
    await waitForEvent(sock, 'connection.update', (update) => update.qr);
    const code = await sock.requestPairingCode('15550001004');
    const wrong = code.startsWith('A') ? `B${code.slice(1)}` : `A${code.slice(1)}`;
    const reply = await sim.admin.post<{ error: string }>('/mock-phone/pair-code', {
      phone: '15550001004',
      code: wrong,
    });
    expect(reply.status).toBe(400);
    expect(reply.body.error).toMatch(/pairing code/);
    const account = await sim.admin.get<{ devices: unknown[] }>('/accounts/15550001004');
    expect(account.body.devices).toEqual([]);
    const closed = nextOutcome(sock);
    await sock.end(undefined);
    await closed;
  });

  it('answers 404 when no companion asked for a code for that number', async () => {
    const reply = await sim.admin.post('/mock-phone/pair-code', { phone: '15550009999', code: 'ABCD1234' });
    expect(reply.status).toBe(404);
  });
});
