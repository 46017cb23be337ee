/**
 * A start racing a delete: the delete discards the session on its host, then removes its rows. A start command the
 * host carries out in between (the row still there, `initializing`) must not launch an engine that would outlive its
 * session; one carried out before is ended by the discard.
 */
import { describe, expect, it } from '@jest/globals';
import type { CommandOf } from '#shared/domain/commands.js';
import { aSession } from '#tests/helpers/builders.js';
import { memoryHost, untilTrue } from '#tests/helpers/memory-host.js';

const startOf = (sessionId: string): CommandOf<'session.start'> => ({
  type: 'session.start',
  sessionId,
  reason: 'requested',
  requestedAt: new Date().toISOString(),
});

describe('Host: a start racing a delete', () => {
  it('does not launch a session discarded before its start command was carried out', async () => {
    const { host, sessions, network } = memoryHost();
    const session = aSession({ status: 'initializing' });
    await sessions.create(session);
    network.storeCredentials(session.id, { phone: '15550001111', pushName: null });
    await host.call('session.discard', { sessionId: session.id });
    await host.handleStart(startOf(session.id));
    expect(network.isConnected(session.id)).toBe(false);
    expect((await host.stats()).activeEngines).toBe(0);
    // Another session starts as ever.
    const other = aSession({ status: 'initializing' });
    await sessions.create(other);
    network.storeCredentials(other.id, { phone: '15550002222', pushName: null });
    await host.handleStart(startOf(other.id));
    await untilTrue(async () => (await sessions.findById(other.id))?.status === 'ready');
    expect(network.isConnected(other.id)).toBe(true);
  });

  it('ends the engine of a session started just before the discard, and wipes its credentials', async () => {
    const { host, sessions, network } = memoryHost();
    const session = aSession({ status: 'initializing' });
    await sessions.create(session);
    network.storeCredentials(session.id, { phone: '15550001111', pushName: null });
    await host.handleStart(startOf(session.id));
    await untilTrue(async () => (await sessions.findById(session.id))?.status === 'ready');
    await host.call('session.discard', { sessionId: session.id });
    expect(network.isConnected(session.id)).toBe(false);
    expect(network.credentialsOf(session.id)).toBeUndefined();
  });
});
