/** Server-side connection control: replacement, drops, refusal and delay, and logging a device out. */
import { jest } from '@jest/globals';
import type { WASocket } from '@whiskeysockets/baileys';
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

interface ConnectionCounts {
  liveConnections: number;
  maxLiveConnections: number;
}

interface AccountView extends ConnectionCounts {
  connected: boolean;
  devices: Array<
    ConnectionCounts & { connected: boolean; loggedOut: boolean; logins: number; replacedConnections: number }
  >;
}

let sim: TestSim;
let client: LinkedClient;
const PHONE = '15550004001';

async function account(phone: string): Promise<AccountView> {
  return (await sim.admin.get<AccountView>(`/accounts/${phone}`)).body;
}

async function reopen(): Promise<WASocket> {
  const sock = connect(sim.wsUrl, restoreMemoryAuth(client.auth.save()));
  expect(await nextOutcome(sock)).toEqual({ connection: 'open' });
  return sock;
}

beforeAll(async () => {
  sim = await startTestSim();
  client = await linkByQr(sim, { phone: PHONE });
});

afterEach(async () => {
  await sim.admin.ok('/connections', { mode: 'accept' });
});

afterAll(async () => {
  await closeClient(client.sock);
  await sim.stop();
});

describe('one live connection per device', () => {
  it('counts the logins of a linked device, one connection open at a time', async () => {
    // The link's own login (after the 515): one connection, never two.
    expect(await account(PHONE)).toMatchObject({
      liveConnections: 1,
      maxLiveConnections: 1,
      devices: [
        { connected: true, liveConnections: 1, maxLiveConnections: 1, logins: 1, replacedConnections: 0 },
      ],
    });
    // A reconnect after the old connection closed is a new login, not an overlap.
    await closeClient(client.sock);
    await eventually(async () => (await account(PHONE)).liveConnections === 0);
    client = { ...client, sock: await reopen() };
    expect((await account(PHONE)).devices).toEqual([
      expect.objectContaining({
        liveConnections: 1,
        maxLiveConnections: 1,
        logins: 2,
        replacedConnections: 0,
      }),
    ]);
  });

  it('replaces the older connection with conflict (440) when the device connects again', async () => {
    const oldClosed = nextOutcome(client.sock);
    const sock = await reopen();
    expect(await oldClosed).toEqual({ connection: 'close', statusCode: 440 });
    const view = await account(PHONE);
    expect(view.devices).toEqual([expect.objectContaining({ connected: true, liveConnections: 1 })]);
    client = { ...client, sock };
  });

  it('records the overlap of a replacement in the high-water mark until a reset', async () => {
    // The replacement above: two connections of the device were open at once while the older one was told.
    const before = await account(PHONE);
    expect(before).toMatchObject({ liveConnections: 1, maxLiveConnections: 2 });
    expect(before.devices).toEqual([
      expect.objectContaining({
        liveConnections: 1,
        maxLiveConnections: 2,
        logins: 3,
        replacedConnections: 1,
      }),
    ]);
    const reset = await sim.admin.ok<AccountView>(`/accounts/${PHONE}/connection-stats/reset`);
    expect(reset).toMatchObject({ liveConnections: 1, maxLiveConnections: 1 });
    expect(reset.devices).toEqual([
      expect.objectContaining({
        liveConnections: 1,
        maxLiveConnections: 1,
        logins: 0,
        replacedConnections: 0,
      }),
    ]);
    expect((await sim.admin.post('/accounts/15559999999/connection-stats/reset')).status).toBe(404);
  });
});

describe('server-side drops', () => {
  it('drops the socket on disconnect, and the device can connect again', async () => {
    const closed = nextOutcome(client.sock);
    expect((await sim.admin.ok<{ closed: number }>(`/accounts/${PHONE}/disconnect`)).closed).toBe(1);
    expect(await closed).toMatchObject({ connection: 'close' });
    expect((await account(PHONE)).connected).toBe(false);
    client = { ...client, sock: await reopen() };
  });

  it('refuses new connections in refuse mode, and accepts them again after', async () => {
    await sim.admin.ok('/connections', { mode: 'refuse' });
    const refused = connect(sim.wsUrl, restoreMemoryAuth(client.auth.save()));
    expect(await nextOutcome(refused)).toMatchObject({ connection: 'close' });
    await sim.admin.ok('/connections', { mode: 'accept' });
    const oldClosed = nextOutcome(client.sock);
    client = { ...client, sock: await reopen() };
    await oldClosed;
  });

  it('holds new connections for delayMs in delay mode', async () => {
    await sim.admin.ok('/connections', { mode: 'delay', delayMs: 400 });
    const started = Date.now();
    const oldClosed = nextOutcome(client.sock);
    client = { ...client, sock: await reopen() };
    expect(Date.now() - started).toBeGreaterThanOrEqual(400);
    await oldClosed;
  });
});

describe('logout from the server side', () => {
  it('closes the client as logged out (401) and refuses the device afterwards', async () => {
    const victim = await linkByQr(sim, { phone: '15550004002' });
    const closed = nextOutcome(victim.sock);
    expect((await sim.admin.ok<{ loggedOut: number }>('/accounts/15550004002/logout')).loggedOut).toBe(1);
    expect(await closed).toEqual({ connection: 'close', statusCode: 401 });
    const again = connect(sim.wsUrl, restoreMemoryAuth(victim.auth.save()));
    expect(await nextOutcome(again)).toEqual({ connection: 'close', statusCode: 401 });
    expect((await account('15550004002')).devices).toEqual([expect.objectContaining({ loggedOut: true })]);
  });

  it('answers 404 for unknown accounts', async () => {
    expect((await sim.admin.post('/accounts/15559999999/logout')).status).toBe(404);
    expect((await sim.admin.post('/accounts/15559999999/disconnect')).status).toBe(404);
  });
});
