import { afterEach, beforeEach, describe, expect, it, jest } from '@jest/globals';
import { ChatSink } from '#host/chats/chat-sink.js';
import { TestEngineFactory } from '#host/engines/test/test-engine.js';
import { TestNetwork } from '#host/engines/test/test-network.js';
import { MessageSink } from '#host/messages/message-sink.js';
import { SessionRunner } from '#host/sessions/session-runner.js';
import { MemoryChatStore } from '#shared/adapters/memory/memory-chat-store.js';
import { MemoryIdentityStore } from '#shared/adapters/memory/memory-identity-store.js';
import { MemoryMediaStorage } from '#shared/adapters/memory/memory-media-storage.js';
import { MemoryMessageStore } from '#shared/adapters/memory/memory-message-store.js';
import {
  MemoryAuditLogStore,
  MemorySessionStore,
  MemoryTeardownFenceStore,
} from '#shared/adapters/memory/memory-stores.js';
import { AuditRecorder } from '#shared/audit/audit-recorder.js';
import type { SessionConfig } from '#shared/domain/session.js';
import { createMetrics } from '#shared/observability/metrics.js';
import { systemClock } from '#shared/ports/clock.port.js';
import { type Logger, silentLogger } from '#shared/ports/logger.port.js';
import { aSession } from '#tests/helpers/builders.js';
import { memoryStatusSink } from '#tests/helpers/memory-status-sink.js';
import { recordingEvents } from '#tests/helpers/recording-events.js';

async function setup(config: SessionConfig = {}, logger: Logger = silentLogger) {
  const sessions = new MemorySessionStore();
  const fences = new MemoryTeardownFenceStore();
  const network = new TestNetwork();
  const { recorder, published } = recordingEvents();
  const auditStore = new MemoryAuditLogStore();
  const audit = new AuditRecorder(auditStore, systemClock, silentLogger, createMetrics());
  const session = aSession({ status: 'initializing', config });
  await sessions.create(session);
  const ended: string[] = [];
  const runner = new SessionRunner(
    {
      sessions,
      fences,
      events: recorder,
      clock: systemClock,
      logger,
      engines: new TestEngineFactory(network),
      sink: new MessageSink({
        messages: new MemoryMessageStore(),
        identities: new MemoryIdentityStore(),
        media: new MemoryMediaStorage(),
        events: recorder,
        chats: new ChatSink({
          chats: new MemoryChatStore(),
          messages: new MemoryMessageStore(),
          media: new MemoryMediaStorage(),
          logger: silentLogger,
        }),
        statuses: memoryStatusSink(recorder, systemClock),
        clock: systemClock,
        logger: silentLogger,
      }),
      audit,
      teardownTimeoutMs: 50,
      random: () => 0.5,
    },
    { id: session.id, name: session.name, config, proxyUrl: null },
    () => ended.push(session.id),
  );
  const status = async () => (await sessions.findById(session.id))?.status;
  return { sessions, fences, network, runner, session, published, status, ended, audit, auditStore };
}

/** Lets setImmediate callbacks and promise chains run (the fake timers leave setImmediate real). */
const settle = async () => {
  for (let i = 0; i < 10; i++) await new Promise((resolve) => setImmediate(resolve));
};

/** Spins the event loop until `probe` holds (QR rendering takes real time, slower on a loaded machine). */
async function until(probe: () => boolean | Promise<boolean>, limit = 5000): Promise<void> {
  const deadline = performance.now() + limit;
  while (!(await probe())) {
    if (performance.now() > deadline) throw new Error('condition not reached');
    await new Promise((resolve) => setImmediate(resolve));
  }
}

describe('SessionRunner', () => {
  beforeEach(() => {
    jest.useFakeTimers({ doNotFake: ['setImmediate', 'nextTick', 'queueMicrotask'] });
  });
  afterEach(() => {
    jest.useRealTimers();
  });

  it('shows a QR, then goes ready with the linked identity and audits the connection', async () => {
    const { runner, network, session, status, published, audit, auditStore } = await setup();
    await runner.launch();
    await until(() => published.some((e) => e.event === 'session.qr'));
    expect(await status()).toBe('qr_ready');
    expect(runner.qr).toBe(`waygate-test-qr:${session.id}:1`);
    network.scanQr(session.id, { phone: '15550001', pushName: 'Ann' });
    await until(() => published.some((e) => e.event === 'session.authenticated'));
    expect(await status()).toBe('ready');
    expect(runner.qr).toBeNull();
    expect(published.map((e) => e.event)).toEqual([
      'session.status',
      'session.qr',
      'session.status',
      'session.status',
      'session.authenticated',
    ]);
    await audit.flush();
    expect((await auditStore.query({ action: 'session_connected' }, { limit: 5, offset: 0 })).total).toBe(1);
  });

  it('reconnects with backoff and reports a loop on the 5th consecutive attempt', async () => {
    const { runner, network, session, status, published } = await setup({ reconnectBaseDelay: 1000 });
    network.storeCredentials(session.id, { phone: '1555', pushName: null });
    await runner.launch();
    await settle();
    expect(await status()).toBe('ready');
    network.refuseConnections(true);
    network.dropConnection(session.id);
    // Failure n schedules attempt n+1 after 1000·2^(n−1) ms; four waits make five consecutive failures.
    for (let failure = 1; failure <= 4; failure++) {
      await settle();
      expect(await status()).toBe('disconnected');
      expect(published.filter((e) => e.event === 'session.reconnect_loop')).toHaveLength(0);
      await jest.advanceTimersByTimeAsync(1000 * 2 ** (failure - 1));
      await settle();
    }
    const loops = published.filter((e) => e.event === 'session.reconnect_loop');
    expect(loops).toHaveLength(1);
    expect(loops[0]?.data).toMatchObject({ attempts: 5, nextDelayMs: 16_000 });
    network.refuseConnections(false);
    await jest.advanceTimersByTimeAsync(16_000);
    await settle();
    expect(await status()).toBe('ready');
  });

  it('a failed connection attempt: lastError says why and when the next comes, a warn log line, an audit entry; ready clears it', async () => {
    const warnings: unknown[] = [];
    const logger: Logger = { ...silentLogger, warn: (entry: unknown) => void warnings.push(entry) };
    const { runner, network, session, sessions, audit, auditStore } = await setup(
      { reconnectBaseDelay: 1000 },
      logger,
    );
    network.storeCredentials(session.id, { phone: '1555', pushName: null });
    network.refuseConnections(true);
    await runner.launch();
    await settle();
    expect(await sessions.findById(session.id)).toMatchObject({
      status: 'disconnected',
      lastError: 'connection refused; reconnecting in 1 s (attempt 1)',
    });
    expect(warnings).toContainEqual(
      expect.objectContaining({
        sessionId: session.id,
        reason: 'connection refused',
        attempt: 1,
        nextDelayMs: 1000,
      }),
    );
    await audit.flush();
    const { data } = await auditStore.query({ action: 'session_disconnected' }, { limit: 5, offset: 0 });
    expect(data).toEqual([
      expect.objectContaining({
        severity: 'warn',
        sessionId: session.id,
        metadata: { reason: 'connection refused', attempt: 1, nextDelayMs: 1000 },
      }),
    ]);

    network.refuseConnections(false);
    await jest.advanceTimersByTimeAsync(1000);
    await settle();
    expect(await sessions.findById(session.id)).toMatchObject({ status: 'ready', lastError: null });
  });

  it('gives up after maxReconnectAttempts and marks the session failed with the reason', async () => {
    const { runner, network, session, status, sessions, ended } = await setup({
      maxReconnectAttempts: 1,
      reconnectBaseDelay: 1000,
    });
    network.storeCredentials(session.id, { phone: '1555', pushName: null });
    await runner.launch();
    await settle();
    network.refuseConnections(true);
    network.dropConnection(session.id);
    await settle();
    await jest.advanceTimersByTimeAsync(1000);
    await settle();
    expect(await status()).toBe('failed');
    expect((await sessions.findById(session.id))?.lastError).toMatch(/Reconnect attempts exhausted after 1/);
    expect(ended).toContain(session.id);
  });

  it('on a network-side unlink wipes credentials, clears the phone and stops', async () => {
    const { runner, network, session, status, sessions, audit, auditStore } = await setup();
    network.storeCredentials(session.id, { phone: '1555', pushName: null });
    await runner.launch();
    await settle();
    network.unlinkFromPhone(session.id);
    await settle();
    expect(await status()).toBe('disconnected');
    expect((await sessions.findById(session.id))?.phone).toBeNull();
    expect(network.credentialsOf(session.id)).toBeUndefined();
    await audit.flush();
    const [entry] = (await auditStore.query({ action: 'session_disconnected' }, { limit: 5, offset: 0 }))
      .data;
    expect(entry?.severity).toBe('warn');
  });

  it.each([
    [{ autoRejectCalls: true }, 'rejected', ['call.received', 'call.rejected']],
    [{}, 'ringing', ['call.received']],
  ] as const)(
    'with config %j a call ringing on the account ends up %s and is published as %j',
    async (config, outcome, names) => {
      const { runner, network, session, status, published } = await setup(config);
      network.storeCredentials(session.id, { phone: '1555', pushName: null });
      await runner.launch();
      await settle();

      const callId = network.placeCall(session.id, '15550002222@c.us', true);
      await settle();

      expect(network.calls.get(callId)?.status).toBe(outcome);
      expect(await status()).toBe('ready');
      const calls = published.filter((event) => event.event.startsWith('call.'));
      expect(calls.map((event) => event.event)).toEqual(names);
      expect(calls[0]?.data).toEqual({
        callId,
        from: '15550002222@c.us',
        caller: { phone: '15550002222@c.us', lid: null },
        isVideo: true,
        isGroup: false,
        timestamp: expect.any(Number),
      });
      if (calls[1])
        expect(calls[1].data).toMatchObject({ callId, sessionId: session.id, outcome: 'rejected' });
    },
  );

  it('ends an engine whose row was deleted before it went ready, and wipes what it linked (a delete racing a start)', async () => {
    const { runner, network, session, sessions, ended } = await setup();
    network.storeCredentials(session.id, { phone: '15550007777', pushName: null });
    await sessions.delete(session.id);
    await runner.launch();
    await until(() => ended.includes(session.id));
    expect(network.isConnected(session.id)).toBe(false);
    expect(network.credentialsOf(session.id)).toBeUndefined();
  });

  it('ends an engine whose row was deleted while it showed a QR', async () => {
    const { runner, network, session, sessions, ended } = await setup();
    await sessions.delete(session.id);
    await runner.launch();
    await until(() => ended.includes(session.id));
    expect(network.isConnected(session.id)).toBe(false);
    expect(runner.qr).toBeNull();
  });

  it('ignores events of an engine it has already stopped', async () => {
    const { runner, network, session, status } = await setup();
    await runner.launch();
    await settle();
    await runner.stop();
    expect(await status()).toBe('disconnected');
    // The old connection is detached; a late scan cannot reach it, and the row stays put.
    expect(() => network.scanQr(session.id, { phone: '1' })).toThrow(/no live connection/);
    expect(await status()).toBe('disconnected');
  });

  it('fences the name while a hung logout tears down, and lifts it when it settles', async () => {
    const { runner, network, session, fences, sessions } = await setup();
    network.storeCredentials(session.id, { phone: '1555', pushName: null });
    await runner.launch();
    await settle();
    network.logoutBehaviour.set(session.id, 'hang');
    const logout = runner.logout();
    await jest.advanceTimersByTimeAsync(50);
    await expect(logout).rejects.toMatchObject({ status: 502, code: 'SESSION_LOGOUT_INCOMPLETE' });
    expect(await fences.isActive(session.name, new Date())).toBe(true);
    expect((await sessions.findById(session.id))?.phone).toBeNull();
    network.releaseHeld();
    await settle();
    expect(await fences.isActive(session.name, new Date())).toBe(false);
    expect(network.credentialsOf(session.id)).toBeUndefined();
  });
});
