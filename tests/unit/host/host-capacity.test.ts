/**
 * A host bounds what it takes on: sessions connect a few at a time (SESSION_CONNECT_CONCURRENCY), so a restart
 * that resumes every session does not hand the event loop a thousand handshakes at once, and it runs at most
 * MAX_CONCURRENT_SESSIONS engines, refusing a start beyond that instead of running out of memory.
 */
import { describe, expect, it } from '@jest/globals';
import { ConnectSlots } from '#host/sessions/connect-slots.js';
import type { CommandOf } from '#shared/domain/commands.js';
import { aSession } from '#tests/helpers/builders.js';
import { memoryHost, untilTrue } from '#tests/helpers/memory-host.js';

const startOf = (sessionId: string): CommandOf<'session.start'> => ({
  type: 'session.start',
  sessionId,
  reason: 'requested',
  requestedAt: new Date().toISOString(),
});

/** Lets promise chains and setImmediate callbacks run. */
const settle = async () => {
  for (let i = 0; i < 20; i++) await new Promise((resolve) => setImmediate(resolve));
};

describe('Host capacity', () => {
  it('resumes every session at once but connects them through its slots, two at a time', async () => {
    const slots = new ConnectSlots(2, 60_000);
    const { host, sessions, network } = memoryHost(undefined, { connectSlots: slots });
    const stored = Array.from({ length: 5 }, (_, i) => aSession({ name: `s${i}`, status: 'ready' }));
    for (const [n, session] of stored.entries()) {
      await sessions.create(session);
      network.storeCredentials(session.id, { phone: `1555000000${n}`, pushName: null });
    }
    network.holdConnects = true;
    expect(await host.resumeRunningSessions()).toBe(5);
    // Every runner is there at once (a queued send finds its session), none connected yet.
    expect((await host.stats()).activeEngines).toBe(5);
    const rounds: number[] = [];
    for (let round = 0; round < 5; round++) {
      await settle();
      if (network.heldCount === 0) break;
      rounds.push(network.heldCount);
      expect(slots.connecting).toBeLessThanOrEqual(2);
      network.releaseHeld();
    }
    expect(rounds).toEqual([2, 2, 1]);
    await untilTrue(async () => {
      const statuses = await Promise.all(stored.map(async (s) => (await sessions.findById(s.id))?.status));
      return statuses.every((status) => status === 'ready');
    });
    expect(slots.connecting).toBe(0);
  });

  it('loads the engine library before resuming sessions (before the API answers), and not without any', async () => {
    const loads: string[] = [];
    const empty = memoryHost();
    empty.engines.preload = async () => void loads.push('empty');
    await empty.host.resumeRunningSessions();
    const stored = memoryHost();
    stored.engines.preload = async () => void loads.push('stored');
    const session = aSession({ status: 'ready' });
    await stored.sessions.create(session);
    stored.network.storeCredentials(session.id, { phone: '15550001111', pushName: null });
    await stored.host.resumeRunningSessions();
    expect(loads).toEqual(['stored']);
  });

  it('fails the sessions beyond MAX_CONCURRENT_SESSIONS at a restart, saying why', async () => {
    const { host, sessions, network } = memoryHost(undefined, { maxSessions: 2 });
    const stored = Array.from({ length: 3 }, (_, n) => aSession({ name: `s${n}`, status: 'ready' }));
    for (const [n, session] of stored.entries()) {
      await sessions.create(session);
      network.storeCredentials(session.id, { phone: `155500000${n}`, pushName: null });
    }
    await host.resumeRunningSessions();
    expect((await host.stats()).activeEngines).toBe(2);
    const rows = await Promise.all(stored.map((session) => sessions.findById(session.id)));
    const failed = rows.filter((row) => row?.status === 'failed');
    expect(failed.map((row) => row?.lastError)).toEqual([
      'Maximum concurrent sessions reached (2) on this host',
    ]);
  });

  it('refuses a start beyond MAX_CONCURRENT_SESSIONS and takes it once a session stopped', async () => {
    const { host, sessions, network } = memoryHost(undefined, { maxSessions: 1 });
    const [first, second] = [aSession({ name: 'a', status: 'initializing' }), aSession({ name: 'b' })];
    for (const session of [first, second]) {
      await sessions.create(session);
      network.storeCredentials(session.id, { phone: `1555${session.name}`, pushName: null });
    }
    await host.handleStart(startOf(first.id));
    await untilTrue(async () => (await sessions.findById(first.id))?.status === 'ready');
    await sessions.update(second.id, { status: 'initializing' });
    await host.handleStart(startOf(second.id));
    expect(await sessions.findById(second.id)).toMatchObject({
      status: 'failed',
      lastError: 'Maximum concurrent sessions reached (1) on this host',
    });
    expect(network.isConnected(second.id)).toBe(false);

    await host.call('session.stop', { sessionId: first.id });
    await sessions.update(second.id, { status: 'initializing' });
    await host.handleStart(startOf(second.id));
    await untilTrue(async () => (await sessions.findById(second.id))?.status === 'ready');
  });
});
