/**
 * A companion logging itself out (Baileys `logout()`): the server unlinks it, and an account can hold those
 * logouts — no answer, nothing unlinked — until the hold is released, which then unlinks the device.
 */
import { jest } from '@jest/globals';
import {
  closeClient,
  connect,
  type LinkedClient,
  linkByQr,
  nextOutcome,
} from '#tests/wa-sim/harness/client.js';
import { restoreMemoryAuth } from '#tests/wa-sim/harness/memory-auth.js';
import { startTestSim, type TestSim } from '#tests/wa-sim/harness/test-sim.js';
import { eventually } from '#tests/wa-sim/harness/wait.js';

jest.setTimeout(30_000);

interface AccountView {
  logoutHold: boolean;
  heldLogouts: number;
  devices: Array<{ deviceId: number; liveConnections: number; loggedOut: boolean }>;
}

let sim: TestSim;

async function account(phone: string): Promise<AccountView> {
  return (await sim.admin.get<AccountView>(`/accounts/${phone}`)).body;
}

/** Logs `client` out with Baileys; its socket closes as logged out (401) whatever the server does. */
async function logout(client: LinkedClient): Promise<void> {
  const closed = nextOutcome(client.sock);
  // Baileys sends the iq and closes its socket without waiting for the answer.
  await client.sock.logout();
  expect(await closed).toEqual({ connection: 'close', statusCode: 401 });
}

beforeAll(async () => {
  sim = await startTestSim();
});

afterAll(async () => {
  await sim.stop();
});

describe('a client logs itself out', () => {
  it('is unlinked at once, and its credentials are refused afterwards', async () => {
    const client = await linkByQr(sim, { phone: '15550011001' });
    await logout(client);
    await eventually(async () => (await account(client.phone)).devices[0]?.loggedOut, 5_000, 'the unlink');
    const again = connect(sim.wsUrl, restoreMemoryAuth(client.auth.save()));
    expect(await nextOutcome(again)).toEqual({ connection: 'close', statusCode: 401 });
  });
});

describe('holding logouts', () => {
  it('swallows the logout iq while held, then unlinks the device when released', async () => {
    const client = await linkByQr(sim, { phone: '15550011002' });
    expect(await sim.admin.ok(`/accounts/${client.phone}/logout-hold`, { hold: true })).toEqual({
      phone: client.phone,
      hold: true,
      released: 0,
    });
    await logout(client);
    await eventually(async () => (await account(client.phone)).heldLogouts === 1, 5_000, 'the held logout');
    expect(await account(client.phone)).toMatchObject({
      logoutHold: true,
      devices: [expect.objectContaining({ loggedOut: false })],
    });

    // Nothing was unlinked: the same credentials still log in while the logout is held.
    const sock = connect(sim.wsUrl, restoreMemoryAuth(client.auth.save()));
    expect(await nextOutcome(sock)).toEqual({ connection: 'open' });

    const removed = nextOutcome(sock);
    expect(await sim.admin.ok(`/accounts/${client.phone}/logout-hold`, { hold: false })).toEqual({
      phone: client.phone,
      hold: false,
      released: 1,
    });
    // The late logout unlinks the device: its live login is told so, and it cannot log in again.
    expect(await removed).toEqual({ connection: 'close', statusCode: 401 });
    const after = await eventually(
      async () => {
        const view = await account(client.phone);
        return view.devices[0]?.liveConnections === 0 ? view : undefined;
      },
      5_000,
      'the closed connection',
    );
    expect(after).toMatchObject({
      logoutHold: false,
      heldLogouts: 0,
      devices: [expect.objectContaining({ loggedOut: true })],
    });
    const again = connect(sim.wsUrl, restoreMemoryAuth(client.auth.save()));
    expect(await nextOutcome(again)).toEqual({ connection: 'close', statusCode: 401 });
  });

  it('leaves other traffic alone while held', async () => {
    const client = await linkByQr(sim, { phone: '15550011003' });
    await sim.admin.ok(`/accounts/${client.phone}/logout-hold`, { hold: true });
    expect(await client.sock.fetchAccountReachoutTimelock()).toMatchObject({ isActive: false });
    await sim.admin.ok(`/accounts/${client.phone}/logout-hold`, { hold: false });
    await closeClient(client.sock);
    expect((await account(client.phone)).devices[0]?.loggedOut).toBe(false);
  });

  it('answers 404 for an unknown account and 400 for a bad body', async () => {
    expect((await sim.admin.post('/accounts/15559999999/logout-hold', { hold: true })).status).toBe(404);
    await linkByQr(sim, { phone: '15550011004' }).then((client) => closeClient(client.sock));
    expect((await sim.admin.post('/accounts/15550011004/logout-hold', { hold: 'yes' })).status).toBe(400);
    expect((await sim.admin.post('/accounts/15550011004/logout-hold', {})).status).toBe(400);
  });
});
