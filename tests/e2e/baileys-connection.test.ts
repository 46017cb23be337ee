/**
 * Connection loss and recovery with the real Baileys engine in the gateway against the simulator in its own
 * process: a server-side drop and the reconnect, refused connections until the attempts are exhausted, the
 * reconnect_loop signal, force-kill, and stop/start. Every recovery logs in with the stored credentials: reaching
 * `ready` without a scan is itself the proof that no new QR was needed.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from '@jest/globals';
import { recordEvents } from '#tests/api/sessions-support.js';
import { linkSessionByQr, phoneSequence } from '#tests/helpers/link-session.js';
import { type SimulatorProcess, startSimulatorProcess } from '#tests/helpers/simulator-process.js';
import { startTestGateway, type TestGateway, waitFor, waitForStatus } from '#tests/helpers/test-gateway.js';
import { unrefBaileysUploadTimeouts } from '#tests/wa-sim/harness/baileys-timers.js';

interface Account {
  phone: string;
  devices: { deviceId: number; liveConnections: number; loggedOut: boolean }[];
}

interface SessionBody {
  id: string;
  status: string;
  phone: string | null;
  lastError: string | null;
}

const nextPhone = phoneSequence('1556');

// Baileys leaves a 30 s timer armed after every pre-key upload; unref it so jest exits when the tests are done.
unrefBaileysUploadTimeouts();

describe('Baileys engine: connection loss and recovery against the simulator', () => {
  let sim: SimulatorProcess;
  let gw: TestGateway;

  beforeAll(async () => {
    sim = await startSimulatorProcess();
    gw = await startTestGateway(sim.gatewayEnv);
  }, 30_000);
  afterEach(async () => {
    await sim.admin.ok('/connections', { mode: 'accept' });
  });
  afterAll(async () => {
    await gw?.close();
    await sim?.stop();
  });

  const account = async (phone: string) => (await sim.admin.get<Account>(`/accounts/${phone}`)).body;
  const liveConnections = async (phone: string) => (await account(phone)).devices[0]?.liveConnections;
  const session = async (id: string) => (await gw.request<SessionBody>('GET', `/api/sessions/${id}`)).body;
  /** Polls until the session has `status` (waitForStatus, with the fields this file reads). */
  const reach = (id: string, status: string, timeoutMs = 5000) =>
    waitForStatus(gw, id, status, timeoutMs) as Promise<SessionBody>;
  const start = async (id: string) => {
    const res = await gw.request('POST', `/api/sessions/${id}/start`);
    expect(res.status).toBe(200);
  };

  /** Creates a session with `config`, links it by scanning its QR as a new phone, and waits for ready. */
  async function linkedSession(config: Record<string, unknown> = {}): Promise<{ id: string; phone: string }> {
    const { id, phone } = await linkSessionByQr(gw, sim, nextPhone(), config);
    await waitFor(async () => (await liveConnections(phone)) === 1);
    return { id, phone };
  }

  it('a server-side drop: disconnected, reconnects by itself to ready without a QR, one live connection (never two)', async () => {
    const { id, phone } = await linkedSession({ reconnectBaseDelay: 1000 });
    const recorder = recordEvents(gw, id);
    // Samples the device's live connections on the simulator for the whole recovery.
    const samples: number[] = [];
    let sampling = true;
    const sampler = (async () => {
      while (sampling) {
        samples.push((await liveConnections(phone)) ?? -1);
        await new Promise((resolve) => setTimeout(resolve, 10));
      }
    })();
    try {
      expect(await sim.admin.ok(`/accounts/${phone}/disconnect`)).toEqual({ closed: 1 });
      await waitFor(() => recorder.statuses().includes('disconnected'), 5000);
      const ready = await waitForStatus(gw, id, 'ready', 10_000);
      expect(ready).toMatchObject({ phone, lastError: null });
      await waitFor(async () => (await liveConnections(phone)) === 1);
      // A second socket of the same device would replace the first (440) and fail the session: give it time.
      await new Promise((resolve) => setTimeout(resolve, 1500));
    } finally {
      sampling = false;
      await sampler;
      recorder.stop();
    }
    expect(recorder.statuses()).toEqual(['disconnected', 'initializing', 'authenticating', 'ready']);
    expect(recorder.names()).toContain('session.disconnected');
    expect(recorder.names()).not.toContain('session.qr');
    expect(samples).toContain(0);
    expect(Math.max(...samples)).toBe(1);
    expect(samples.at(-1)).toBe(1);
    expect(await session(id)).toMatchObject({ status: 'ready', phone });
    expect((await account(phone)).devices).toHaveLength(1);
  }, 40_000);

  it('refused connections exhaust maxReconnectAttempts: failed with lastError; once accepted, start is ready without a QR', async () => {
    const { id, phone } = await linkedSession({ reconnectBaseDelay: 1000, maxReconnectAttempts: 2 });
    const recorder = recordEvents(gw, id);
    await sim.admin.ok('/connections', { mode: 'refuse' });
    await sim.admin.ok(`/accounts/${phone}/disconnect`);
    // Attempts after ~1 s and ~2 s (±20 %), then no third one.
    const failed = await reach(id, 'failed', 10_000);
    expect(failed.lastError).toMatch(/^Reconnect attempts exhausted after 2 attempt\(s\): /);
    expect(recorder.statuses()).toEqual([
      'disconnected',
      'initializing',
      'disconnected',
      'initializing',
      'disconnected',
      'failed',
    ]);
    expect(await liveConnections(phone)).toBe(0);

    await sim.admin.ok('/connections', { mode: 'accept' });
    await start(id);
    expect(await waitForStatus(gw, id, 'ready', 15_000)).toMatchObject({ phone, lastError: null });
    recorder.stop();
    expect(recorder.names()).not.toContain('session.qr');
    await waitFor(async () => (await liveConnections(phone)) === 1);
  }, 40_000);

  it('session.reconnect_loop on the 5th consecutive failed attempt (starts during the backoff try at once)', async () => {
    // The 5th attempt would come ~15 s after the drop by backoff alone (1 + 2 + 4 + 8 s); a start while waiting
    // to reconnect tries immediately and counts as the next consecutive attempt.
    const { id, phone } = await linkedSession({ reconnectBaseDelay: 1000 });
    const recorder = recordEvents(gw, id);
    const disconnects = () => recorder.names().filter((name) => name === 'session.disconnected').length;
    await sim.admin.ok('/connections', { mode: 'refuse' });
    await sim.admin.ok(`/accounts/${phone}/disconnect`);
    await waitFor(() => disconnects() === 1, 5000);
    for (let attempt = 2; attempt <= 5; attempt++) {
      expect(recorder.names()).not.toContain('session.reconnect_loop');
      await start(id);
      await waitFor(() => disconnects() === attempt, 5000);
    }
    const loop = await waitFor(() => recorder.events.filter((e) => e.event === 'session.reconnect_loop'));
    expect(loop).toHaveLength(1);
    expect(loop[0]!.data).toMatchObject({ sessionId: id, attempts: 5 });
    const { nextDelayMs } = loop[0]!.data as { nextDelayMs: number };
    expect(nextDelayMs).toBeGreaterThanOrEqual(12_800); // 1000 · 2⁴ − 20 %
    expect(nextDelayMs).toBeLessThanOrEqual(19_200);
    const waiting = await reach(id, 'disconnected');
    // Refused at the upgrade: the server was never reached.
    expect(waiting.lastError).toMatch(
      /^Cannot reach the WhatsApp server \(.+\); reconnecting in \d+ s \(attempt 5\)$/,
    );

    // Once connections are accepted again, a start reconnects with the stored credentials.
    await sim.admin.ok('/connections', { mode: 'accept' });
    await start(id);
    expect(await waitForStatus(gw, id, 'ready', 15_000)).toMatchObject({ phone, lastError: null });
    recorder.stop();
    expect(recorder.names()).not.toContain('session.qr');
  }, 40_000);

  it('force-kill: 200 disconnected, the connection is gone on the simulator and stays gone; start is ready without a QR', async () => {
    const { id, phone } = await linkedSession({ reconnectBaseDelay: 1000 });
    const recorder = recordEvents(gw, id);
    const res = await gw.request<SessionBody>('POST', `/api/sessions/${id}/force-kill`);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ status: 'disconnected', phone });
    await waitFor(async () => (await liveConnections(phone)) === 0);
    // Proving an absence: past the 1000 ms (+20 %) backoff nothing reconnected.
    await new Promise((resolve) => setTimeout(resolve, 1500));
    expect(await liveConnections(phone)).toBe(0);
    expect(recorder.statuses()).toEqual(['disconnected']);

    await start(id);
    expect(await waitForStatus(gw, id, 'ready', 15_000)).toMatchObject({ phone });
    recorder.stop();
    expect(recorder.names()).not.toContain('session.qr');
    await waitFor(async () => (await liveConnections(phone)) === 1);
  }, 40_000);

  it('stop: disconnected with the credentials kept; start is ready again without a QR', async () => {
    const { id, phone } = await linkedSession({ reconnectBaseDelay: 1000 });
    const recorder = recordEvents(gw, id);
    const res = await gw.request<SessionBody>('POST', `/api/sessions/${id}/stop`);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ status: 'disconnected', phone, lastError: null });
    await waitFor(async () => (await liveConnections(phone)) === 0);
    expect(fs.existsSync(path.join(gw.dataDir, 'auth', id, 'auth.sqlite'))).toBe(true);
    expect((await account(phone)).devices[0]?.loggedOut).toBe(false);

    const started = await gw.request<SessionBody>('POST', `/api/sessions/${id}/start`);
    expect(started.status).toBe(200);
    expect(started.body.status).toBe('initializing');
    expect(await waitForStatus(gw, id, 'ready', 15_000)).toMatchObject({ phone });
    recorder.stop();
    // The host publishes the operator start's `initializing` when it launches the engine.
    expect(recorder.statuses()).toEqual(['disconnected', 'initializing', 'authenticating', 'ready']);
    expect(recorder.names()).not.toContain('session.qr');
    await waitFor(async () => (await liveConnections(phone)) === 1);
  }, 40_000);
});
