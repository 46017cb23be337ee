/**
 * The connect deadline the Baileys engine enforces itself (BAILEYS_CONNECT_TIMEOUT_MS): Baileys' own
 * connectTimeoutMs is off because it also arms a timer per written frame. A server that holds the WebSocket upgrade
 * longer than the deadline costs a reconnect attempt; one that answers within it links as usual; and a connection
 * that is up never trips the deadline afterwards (it is disarmed by the first stanza).
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from '@jest/globals';
import { recordEvents } from '#tests/api/sessions-support.js';
import { linkSessionByQr, phoneSequence } from '#tests/helpers/link-session.js';
import { type SimulatorProcess, startSimulatorProcess } from '#tests/helpers/simulator-process.js';
import { startTestGateway, type TestGateway, waitFor, waitForStatus } from '#tests/helpers/test-gateway.js';
import { unrefBaileysUploadTimeouts } from '#tests/wa-sim/harness/baileys-timers.js';

interface Account {
  devices: { liveConnections: number }[];
}

const CONNECT_TIMEOUT_MS = 1500;
const nextPhone = phoneSequence('1557');

unrefBaileysUploadTimeouts();

describe('Baileys engine: its own connect deadline', () => {
  let sim: SimulatorProcess;
  let gw: TestGateway;

  beforeAll(async () => {
    sim = await startSimulatorProcess();
    gw = await startTestGateway({
      ...sim.gatewayEnv,
      BAILEYS_CONNECT_TIMEOUT_MS: String(CONNECT_TIMEOUT_MS),
    });
  }, 30_000);
  afterEach(async () => {
    await sim.admin.ok('/connections', { mode: 'accept' });
  });
  afterAll(async () => {
    await gw?.close();
    await sim?.stop();
  });

  const liveConnections = async (phone: string) =>
    (await sim.admin.get<Account>(`/accounts/${phone}`)).body.devices[0]?.liveConnections;

  it('a linked connection outlives the deadline: no reconnect, one live connection', async () => {
    const { id, phone } = await linkSessionByQr(gw, sim, nextPhone());
    const recorder = recordEvents(gw, id);
    await new Promise((resolve) => setTimeout(resolve, CONNECT_TIMEOUT_MS * 2));
    recorder.stop();
    expect(recorder.statuses()).toEqual([]);
    expect(await liveConnections(phone)).toBe(1);
  }, 30_000);

  it('an upgrade held past the deadline fails the attempt; within the deadline the session reconnects', async () => {
    const { id, phone } = await linkSessionByQr(gw, sim, nextPhone(), {
      reconnectBaseDelay: 1000,
      maxReconnectAttempts: 1,
    });
    const recorder = recordEvents(gw, id);
    // Held three times the deadline: without the engine's deadline the attempt would succeed once released.
    await sim.admin.ok('/connections', { mode: 'delay', delayMs: CONNECT_TIMEOUT_MS * 3 });
    const dropped = Date.now();
    await sim.admin.ok(`/accounts/${phone}/disconnect`);
    const failed = await waitForStatus(gw, id, 'failed', 15_000);
    // The attempt starts after ~1 s of backoff (±20 %) and ends at the deadline, before the server lets it in.
    expect(Date.now() - dropped).toBeLessThan(1200 + CONNECT_TIMEOUT_MS * 3);
    expect(failed.lastError).toBe(
      `Reconnect attempts exhausted after 1 attempt(s): Cannot reach the WhatsApp server (no answer within ${CONNECT_TIMEOUT_MS} ms)`,
    );
    recorder.stop();
    expect(recorder.statuses()).toEqual(['disconnected', 'initializing', 'disconnected', 'failed']);

    // A server slower than usual but within the deadline: the session is back, still without a QR.
    await sim.admin.ok('/connections', { mode: 'delay', delayMs: Math.round(CONNECT_TIMEOUT_MS / 3) });
    expect((await gw.request('POST', `/api/sessions/${id}/start`)).status).toBe(200);
    expect(await waitForStatus(gw, id, 'ready', 15_000)).toMatchObject({ phone, lastError: null });
    await waitFor(async () => (await liveConnections(phone)) === 1);
  }, 40_000);
});
