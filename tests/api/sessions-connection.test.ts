/**
 * What the network does to a session: dropped connections and reconnect backoff, exhausted attempts, refused
 * connections, reconnect_loop, and an unlink from the phone. The TestNetwork plays the network.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { startTestGateway, type TestGateway, waitFor } from '#tests/helpers/test-gateway.js';
import {
  createSession,
  expectError,
  getSession,
  linkedSession,
  recordEvents,
  settledAudit,
  startTo,
  waitForAudit,
  waitForSession,
} from './sessions-support.js';

describe('connection loss and reconnect', () => {
  let gw: TestGateway;

  beforeAll(async () => {
    gw = await startTestGateway();
  });
  afterAll(async () => {
    gw.network.refuseConnections(false);
    await gw.close();
  });

  it('a dropped connection goes disconnected, then reconnects after the backoff to ready with its identity', async () => {
    const session = await linkedSession(gw, { config: { reconnectBaseDelay: 1000 } });
    const recorder = recordEvents(gw, session.id);
    const droppedAt = Date.now();
    gw.network.dropConnection(session.id);

    const down = await waitForSession(gw, session.id, 'disconnected');
    expect(down.phone).toBe('15550001111');
    const ready = await waitForSession(gw, session.id, 'ready', () => true, 3000);
    expect(ready).toMatchObject({ phone: '15550001111', pushName: 'Alice', lastError: null });

    expect(await recorder.reached(['ready'])).toEqual([
      'disconnected',
      'initializing',
      'authenticating',
      'ready',
    ]);
    expect(recorder.names()).toContain('session.disconnected');
    expect(recorder.names()).not.toContain('session.qr');
    const reconnectAt = recorder.events.find(
      (e) => e.event === 'session.status' && (e.data as { status: string }).status === 'initializing',
    )!.at;
    // The backoff starts once the drop is recorded and announced (session.disconnected): timed from there, the
    // store's write latency (DynamoDB Local on a loaded machine, in the aws mode) is not counted as backoff.
    const announcedAt = recorder.events.find((e) => e.event === 'session.disconnected')!.at;
    expect(announcedAt).toBeGreaterThanOrEqual(droppedAt);
    // First attempt: base delay 1000 ms with ±20 % jitter.
    expect(reconnectAt - announcedAt).toBeGreaterThanOrEqual(790);
    expect(reconnectAt - announcedAt).toBeLessThan(1590); // a second attempt would wait ≥ 1600 ms

    // Reaching ready resets the attempt counter: the next drop backs off from the base delay again, not 2000 ms.
    const secondDropAt = Date.now();
    gw.network.dropConnection(session.id);
    await waitForSession(gw, session.id, 'disconnected');
    await waitForSession(gw, session.id, 'ready', () => true, 3000);
    expect(
      (await recorder.reached(['disconnected', 'initializing', 'authenticating', 'ready'])).slice(4),
    ).toEqual(['disconnected', 'initializing', 'authenticating', 'ready']);
    const secondReconnect = recorder.events.filter((e) => e.event === 'session.status').at(-3)!;
    const secondAnnounced = recorder.events.filter((e) => e.event === 'session.disconnected').at(-1)!;
    expect(secondAnnounced.at).toBeGreaterThanOrEqual(secondDropAt);
    expect(secondReconnect.at - secondAnnounced.at).toBeLessThan(1590); // a second attempt would wait ≥ 1600 ms
    recorder.stop();
    // A network drop is not an unlink: nothing is audited as session_disconnected.
    expect(await settledAudit(gw, 'session_disconnected', session.id)).toEqual([]);
  });

  it('maxReconnectAttempts 0: a drop fails the session at once with lastError, and nothing reconnects', async () => {
    const session = await linkedSession(gw, {
      config: { maxReconnectAttempts: 0, reconnectBaseDelay: 1000 },
    });
    const recorder = recordEvents(gw, session.id);
    gw.network.dropConnection(session.id);
    const failed = await waitForSession(gw, session.id, 'failed');
    expect(failed.lastError).toMatch(/exhausted/i);
    expect(failed.lastError).toMatch(/connection lost/);
    expect(gw.network.isConnected(session.id)).toBe(false);
    expect(await recorder.reached(['failed'])).toEqual(['disconnected', 'failed']);
    // A failed session can be started again by the operator, and its credentials still log it in.
    await startTo(gw, session.id, 'ready');
    recorder.stop();
  });

  it('refused connections back off exponentially and fail after maxReconnectAttempts', async () => {
    const session = await linkedSession(gw, {
      config: { maxReconnectAttempts: 2, reconnectBaseDelay: 1000 },
    });
    const recorder = recordEvents(gw, session.id);
    gw.network.refuseConnections(true);
    try {
      const droppedAt = Date.now();
      gw.network.dropConnection(session.id);
      const failed = await waitForSession(gw, session.id, 'failed', () => true, 15_000);
      expect(failed.lastError).toMatch(/exhausted after 2 attempt\(s\): connection refused/);
      expect(await recorder.reached(['failed'])).toEqual([
        'disconnected',
        'initializing',
        'disconnected',
        'initializing',
        'disconnected',
        'failed',
      ]);
      const changes = recorder.events.filter((e) => e.event === 'session.status');
      const attempt1 = changes[1]!.at - droppedAt;
      const attempt2 = changes[3]!.at - changes[2]!.at;
      // 1000 ms then 2000 ms, each ±20 %.
      expect(attempt1).toBeGreaterThanOrEqual(790);
      expect(attempt1).toBeLessThan(1590);
      expect(attempt2).toBeGreaterThanOrEqual(1590);
      expect(attempt2).toBeLessThan(3190); // a third would wait ≥ 3200 ms
      expect(recorder.names()).not.toContain('session.reconnect_loop');
    } finally {
      gw.network.refuseConnections(false);
      recorder.stop();
    }
  }, 30_000);

  it('session.reconnect_loop is emitted on the 5th consecutive failed attempt, not before', async () => {
    // Backoff from 1000 ms would put the 5th attempt ~15 s away; an operator start during the backoff tries at
    // once, so five consecutive failures take a few hundred ms.
    const session = await linkedSession(gw, { config: { reconnectBaseDelay: 1000 } });
    const recorder = recordEvents(gw, session.id);
    gw.network.refuseConnections(true);
    try {
      gw.network.dropConnection(session.id);
      await waitForSession(gw, session.id, 'disconnected');
      for (let attempt = 2; attempt <= 5; attempt++) {
        const before = recorder.names().filter((n) => n === 'session.disconnected').length;
        expect(recorder.names()).not.toContain('session.reconnect_loop');
        const res = await gw.request('POST', `/api/sessions/${session.id}/start`);
        expect(res.status).toBe(200);
        await waitForSession(
          gw,
          session.id,
          'disconnected',
          () => recorder.names().filter((n) => n === 'session.disconnected').length > before,
        );
      }
      // The signal follows the 5th attempt's `session.disconnected` once the backoff is written (a store round trip:
      // milliseconds on DynamoDB), so wait for it rather than expect it in the same instant.
      await waitFor(() => recorder.names().includes('session.reconnect_loop'));
      const loop = recorder.events.filter((e) => e.event === 'session.reconnect_loop');
      expect(loop).toHaveLength(1);
      expect(loop[0]!.data).toMatchObject({ sessionId: session.id, attempts: 5 });
      const { nextDelayMs } = loop[0]!.data as { nextDelayMs: number };
      expect(nextDelayMs).toBeGreaterThanOrEqual(12_800); // 1000 · 2⁴ − 20 %
      expect(nextDelayMs).toBeLessThanOrEqual(19_200);
      const current = await waitForSession(gw, session.id, 'disconnected');
      expect(current.lastError).toMatch(/attempt 5/);

      // Once the network accepts again, the next start reconnects with the stored credentials.
      gw.network.refuseConnections(false);
      await startTo(gw, session.id, 'ready');
    } finally {
      gw.network.refuseConnections(false);
      recorder.stop();
    }
  });

  it('force-kill while waiting to reconnect is 400 (no engine to kill): nothing audited, the reconnect goes on', async () => {
    const session = await linkedSession(gw, { config: { reconnectBaseDelay: 1000 } });
    gw.network.dropConnection(session.id);
    const down = await waitForSession(gw, session.id, 'disconnected');
    expectError(
      await gw.request('POST', `/api/sessions/${session.id}/force-kill`),
      400,
      'SESSION_NOT_STARTED',
    );
    expect(await getSession(gw, session.id)).toEqual(down);
    await waitForSession(gw, session.id, 'ready', () => true, 3000);
    expect(await settledAudit(gw, 'session_force_killed', session.id)).toEqual([]);
  });

  it('an unlink from the phone disconnects, clears the phone, wipes credentials and audits session_disconnected (warn)', async () => {
    const session = await linkedSession(gw, { config: { reconnectBaseDelay: 1000 } });
    const recorder = recordEvents(gw, session.id);
    gw.network.unlinkFromPhone(session.id);
    const down = await waitForSession(gw, session.id, 'disconnected');
    expect(down.phone).toBeNull();
    expect(down.lastError).toMatch(/logged out/);
    expect(gw.network.credentialsOf(session.id)).toBeUndefined();
    const [audit] = await waitForAudit(gw, 'session_disconnected', session.id);
    expect(audit).toMatchObject({ severity: 'warn', sessionName: session.name });
    expect(recorder.names()).toContain('session.disconnected');

    // An unlink is terminal: no reconnect follows; a new start needs a new QR scan.
    expect(await recorder.reached(['disconnected'])).toEqual(['disconnected']);
    await startTo(gw, session.id, 'qr_ready');
    recorder.stop();
  });

  it('a session stopped by the operator does not reconnect on its own', async () => {
    const session = await createSession(gw, { config: { reconnectBaseDelay: 1000 } });
    await startTo(gw, session.id, 'qr_ready');
    gw.network.scanQr(session.id, { phone: '15550003333' });
    await waitForSession(gw, session.id, 'ready');
    gw.network.dropConnection(session.id);
    await waitForSession(gw, session.id, 'disconnected');
    // Stopped during the backoff: the pending reconnect is cancelled.
    expect((await gw.request('POST', `/api/sessions/${session.id}/stop`)).status).toBe(200);
    const recorder = recordEvents(gw, session.id);
    await new Promise((resolve) => setTimeout(resolve, 1400)); // past the 1000 ms (+20 %) backoff
    expect(recorder.statuses()).toEqual([]);
    expect(gw.network.isConnected(session.id)).toBe(false);
    recorder.stop();
  });
});
