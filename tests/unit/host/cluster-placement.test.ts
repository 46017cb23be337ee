/**
 * Placement across two real hosts sharing one set of memory stores and one test network, each with its own real
 * RPC server, talking over real HTTP. Lease time is the shared test clock and the hosts' renewal and sweep timers
 * are jest's fake timers: a host whose timers do not run while the clock passes its lease's end is a host that
 * stopped renewing (crashed, or paused), and it renews again exactly when the test advances the timers.
 */
import { afterEach, beforeEach, describe, expect, it, jest } from '@jest/globals';
import { HttpHostRpcClient } from '#shared/adapters/host-rpc/http-host-rpc-client.js';
import { LeaseRoutedHostGateway } from '#shared/adapters/host-rpc/lease-routed-host-gateway.js';
import type { CommandOf } from '#shared/domain/commands.js';
import type { Session, SessionStatus } from '#shared/domain/session.js';
import { statusesAllowing } from '#shared/domain/session-status-machine.js';
import { aMessage, aSession } from '#tests/helpers/builders.js';
import {
  type ClusterNode,
  RPC_TOKEN,
  type SharedBackends,
  sharedBackends,
  startClusterNode,
  TEST_TIMINGS as TIMINGS,
  until,
} from '#tests/helpers/cluster-node.js';

describe('multi-node placement', () => {
  let shared: SharedBackends;
  let a: ClusterNode;
  let b: ClusterNode;

  beforeEach(async () => {
    jest.useFakeTimers({ doNotFake: ['setImmediate', 'nextTick', 'queueMicrotask'] });
    shared = sharedBackends();
    a = await startClusterNode('node-a', shared, TIMINGS);
    b = await startClusterNode('node-b', shared, TIMINGS);
    // Boot: nothing to adopt yet; starts each host's renewal and sweep timers.
    expect(await a.host.resumeRunningSessions()).toBe(0);
    expect(await b.host.resumeRunningSessions()).toBe(0);
  });

  afterEach(async () => {
    await a.host.shutdown();
    await b.host.shutdown();
    await a.rpc.close();
    await b.rpc.close();
    jest.useRealTimers();
  });

  const row = async (id: string) => (await shared.sessions.findById(id)) as Session;
  const engines = async (node: ClusterNode) => (await node.host.stats()).activeEngines;
  const statusIs = (id: string, status: SessionStatus) => async () => (await row(id)).status === status;

  /** A session its start request moved to `initializing`, with stored credentials (it logs straight in). */
  async function startedSession(): Promise<Session> {
    const stamp = shared.clock.now().toISOString();
    const session = aSession({ status: 'initializing', createdAt: stamp, updatedAt: stamp });
    await shared.sessions.create(session);
    shared.network.storeCredentials(session.id, { phone: '4915100000001', pushName: 'Ann' });
    return session;
  }

  const startCommand = (sessionId: string): CommandOf<'session.start'> => ({
    type: 'session.start',
    sessionId,
    reason: 'requested',
    requestedAt: shared.clock.now().toISOString(),
  });

  /** `node` consumes the session's start command; the session ends up ready there. */
  async function runOn(node: ClusterNode): Promise<Session> {
    const session = await startedSession();
    await node.host.handleStart(startCommand(session.id));
    await until(statusIs(session.id, 'ready'), 'ready');
    expect(await row(session.id)).toMatchObject({
      nodeId: node.nodeId,
      nodeUrl: node.url,
      leaseExpiresAt: new Date(shared.clock.now().getTime() + TIMINGS.leaseTtlMs).toISOString(),
    });
    return session;
  }

  it('the host that consumes a start command claims the lease and runs the engine', async () => {
    await runOn(a);
    expect(await engines(a)).toBe(1);
    expect(await engines(b)).toBe(0);
  });

  it('a start command consumed by a non-owner is carried out by the live owner', async () => {
    const session = await runOn(a);
    // A's connection drops and its runner waits out a reconnect backoff (a fake timer that never runs here).
    shared.network.refuseConnections(true);
    shared.network.dropConnection(session.id);
    await until(statusIs(session.id, 'disconnected'), 'disconnected on A');
    shared.network.refuseConnections(false);
    // The caller starts it again (what startSession writes); node B happens to consume the command.
    await shared.sessions.update(
      session.id,
      { status: 'initializing' },
      { expectStatus: statusesAllowing('start') },
    );
    await b.host.handleStart(startCommand(session.id));
    // Only A's runner reconnecting now can make it ready: its backoff timer never fires in this test.
    await until(statusIs(session.id, 'ready'), 'ready again');
    expect(await row(session.id)).toMatchObject({ nodeId: 'node-a' });
    expect(await engines(a)).toBe(1);
    expect(await engines(b)).toBe(0);
    expect(b.published).toEqual([]);
  });

  it('a send command consumed by a non-owner is forwarded and sent by the owner', async () => {
    const session = await runOn(a);
    const message = aMessage({
      sessionId: session.id,
      status: 'pending',
      timestamp: null,
      body: 'hi from B',
    });
    await shared.messages.insert(message);
    await b.host.handleSend({
      type: 'message.send',
      sessionId: session.id,
      messageId: message.id,
      requestedAt: shared.clock.now().toISOString(),
    });
    expect(shared.network.sent.get(session.id)).toEqual([
      {
        chatId: message.chatId,
        content: { type: 'text', text: 'hi from B' },
        waMessageId: message.waMessageId,
      },
    ]);
    expect(await shared.messages.findById(session.id, message.id)).toMatchObject({ status: 'sent' });
    expect(a.published.map((e) => e.event)).toContain('message.sent');
    expect(b.published).toEqual([]);
    expect(await engines(b)).toBe(0);
  });

  it("after a crashed owner's lease lapses, another host adopts the session; the old owner then stands down", async () => {
    const session = await runOn(a);
    const chatId = '4915100000002@c.us';
    await a.host.call('presence.subscribe', { sessionId: session.id, chatId });
    // A stops renewing (its timers do not run) while the lease runs out.
    shared.clock.advance(TIMINGS.leaseTtlMs);
    expect(await b.host.resumeRunningSessions()).toBe(1);
    expect(await row(session.id)).toMatchObject({
      nodeId: 'node-b',
      nodeUrl: b.url,
      claimedAt: shared.clock.now().toISOString(),
    });
    await until(statusIs(session.id, 'ready'), 'ready on B');
    expect(b.published).toContainEqual(
      expect.objectContaining({
        event: 'session.status',
        data: { sessionId: session.id, status: 'initializing' },
      }),
    );
    expect(await engines(b)).toBe(1);
    // The presence subscription made on A is issued again by B's connection.
    expect(shared.network.presence.issued.get(session.id)).toEqual([chatId, chatId]);
    const adopted = await row(session.id);
    expect(await engines(a)).toBe(1);
    // A comes back and renews: the row names B, so A ends its engine and writes nothing.
    await jest.advanceTimersByTimeAsync(TIMINGS.leaseRenewMs);
    await until(async () => (await engines(a)) === 0, "A's engine ended");
    expect(await row(session.id)).toEqual(adopted);
    expect(shared.network.isConnected(session.id)).toBe(true);
    // A send that A's consumer receives now goes to B.
    const message = aMessage({ sessionId: session.id, status: 'pending', timestamp: null });
    await shared.messages.insert(message);
    await a.host.handleSend({
      type: 'message.send',
      sessionId: session.id,
      messageId: message.id,
      requestedAt: shared.clock.now().toISOString(),
    });
    expect(b.published.map((e) => e.event)).toContain('message.sent');
  });

  it('a session in reconnect backoff on a host that died keeps its lease, and another host adopts and reconnects it', async () => {
    const session = await runOn(a);
    shared.network.refuseConnections(true);
    shared.network.dropConnection(session.id);
    await until(statusIs(session.id, 'disconnected'), 'disconnected on A');
    // Backing off (A's retry timer is a fake timer that never runs here): the lease stays A's.
    expect(await row(session.id)).toMatchObject({ status: 'disconnected', nodeId: 'node-a' });
    shared.network.refuseConnections(false);
    // A dies: nothing of it runs while its lease runs out.
    shared.clock.advance(TIMINGS.leaseTtlMs);
    expect(await b.host.resumeRunningSessions()).toBe(1);
    await until(statusIs(session.id, 'ready'), 'ready on B');
    expect(await row(session.id)).toMatchObject({ nodeId: 'node-b', lastError: null });
    expect(await engines(b)).toBe(1);
  });

  it('a host that receives a send for a session whose owner lapsed adopts it at once and sends', async () => {
    const session = await runOn(a);
    shared.clock.advance(TIMINGS.leaseTtlMs);
    const message = aMessage({ sessionId: session.id, status: 'pending', timestamp: null });
    await shared.messages.insert(message);
    const sending = b.host.handleSend({
      type: 'message.send',
      sessionId: session.id,
      messageId: message.id,
      requestedAt: shared.clock.now().toISOString(),
    });
    await until(async () => (await row(session.id)).nodeId === 'node-b', 'claimed by B');
    await until(statusIs(session.id, 'ready'), 'ready on B');
    // The send waits for the adopted session in 50 ms polls (fake timers): one poll finds it connected.
    await jest.advanceTimersByTimeAsync(50);
    await sending;
    expect(await shared.messages.findById(session.id, message.id)).toMatchObject({ status: 'sent' });
    expect(b.published.map((e) => e.event)).toContain('message.sent');
  });

  it('a send forwarded to a host that no longer owns the session is retried, not failed', async () => {
    // A forwarder read a stale row naming A; by the time the command arrives, B owns the session.
    const session = await runOn(b);
    const message = aMessage({ sessionId: session.id, status: 'pending', timestamp: null });
    await shared.messages.insert(message);
    const command = {
      type: 'message.send' as const,
      sessionId: session.id,
      messageId: message.id,
      requestedAt: shared.clock.now().toISOString(),
    };
    const forwarder = new HttpHostRpcClient({ token: RPC_TOKEN, timeoutMs: 2000 });
    // 5xx: the forwarder's consumer keeps the command and places it again (it drops 4xx refusals).
    const error = await forwarder.call(a.url, 'command.run', { sessionId: session.id, command }).then(
      () => null,
      (e: unknown) => e,
    );
    expect(error).toMatchObject({ retryable: true, status: expect.any(Number) });
    expect((error as { status: number }).status).toBeGreaterThanOrEqual(500);
    expect(await shared.messages.findById(session.id, message.id)).toMatchObject({ status: 'pending' });
  });

  it('sessions that are not running are never adopted, nor running ones with a live owner', async () => {
    const owned = await runOn(a);
    const lapsed = {
      nodeId: 'node-gone',
      nodeUrl: 'http://127.0.0.1:1',
      claimedAt: shared.clock.now().toISOString(),
      leaseExpiresAt: shared.clock.now().toISOString(),
    };
    const idle = [
      // Stopped (a stop gives the lease back in the same write); a failed one whose owner is gone.
      aSession({ status: 'disconnected' }),
      aSession({ status: 'failed', ...lapsed }),
      aSession({ status: 'created' }),
    ];
    for (const session of idle) await shared.sessions.create(session);
    expect(await b.host.resumeRunningSessions()).toBe(0);
    for (const session of idle) expect(await row(session.id)).toEqual(session);
    expect(await row(owned.id)).toMatchObject({ nodeId: 'node-a' });
    expect(await engines(b)).toBe(0);
  });

  it('a graceful shutdown releases the leases, so another host adopts at its next sweep', async () => {
    const session = await runOn(a);
    expect(await engines(b)).toBe(0);
    await a.host.shutdown();
    expect(await row(session.id)).toMatchObject({ status: 'ready', nodeId: null, leaseExpiresAt: null });
    // No lease time passes: the sweep's timer alone brings B in.
    await jest.advanceTimersByTimeAsync(TIMINGS.sweepMs);
    await until(async () => (await row(session.id)).nodeId === 'node-b', 'claimed by B');
    await until(statusIs(session.id, 'ready'), 'ready on B');
    expect(await engines(b)).toBe(1);
  });

  it("a caller's stop reaches the owner, which stops the session and gives the lease back", async () => {
    const session = await runOn(a);
    const gateway = new LeaseRoutedHostGateway({
      sessions: shared.sessions,
      clock: shared.clock,
      rpc: new HttpHostRpcClient({ token: RPC_TOKEN, timeoutMs: 2000 }),
      wipeCredentials: async () => {
        throw new Error('not expected: the owner answers');
      },
    });
    const stopped = await gateway.call('session.stop', { sessionId: session.id });
    // The write that stops the session gives the lease back with it: an owner on a row always means an engine.
    expect(stopped).toMatchObject({ status: 'disconnected', nodeId: null, leaseExpiresAt: null });
    expect(await engines(a)).toBe(0);
    await jest.advanceTimersByTimeAsync(TIMINGS.leaseRenewMs);
    expect(await row(session.id)).toMatchObject({ status: 'disconnected', nodeId: null });
    expect(a.published.map((e) => e.event)).toContain('session.status');
    // A stopped session stays stopped: no sweep, on either host, brings it back.
    expect(await a.host.resumeRunningSessions()).toBe(0);
    expect(await b.host.resumeRunningSessions()).toBe(0);
  });
});
