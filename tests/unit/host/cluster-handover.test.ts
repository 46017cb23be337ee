/**
 * A host that shuts down hands its running sessions over (multi-node): it releases their leases and queues a
 * `resume` start command for each, and a live host that receives one adopts the session at once, with no sweep
 * (the hosts' sweep timers are jest's fake timers and do not run unless a test advances them). The lease still
 * guards the session: a command delivered twice, to two hosts at once, or after a sweep, starts one engine.
 */
import { afterEach, beforeEach, describe, expect, it, jest } from '@jest/globals';
import { TestEngineFactory } from '#host/engines/test/test-engine.js';
import type { CommandOf } from '#shared/domain/commands.js';
import type { Session } from '#shared/domain/session.js';
import { aSession } from '#tests/helpers/builders.js';
import {
  type ClusterNode,
  type SharedBackends,
  sharedBackends,
  startClusterNode,
  TEST_TIMINGS,
  until,
} from '#tests/helpers/cluster-node.js';

describe('the hand-over of a shut-down host', () => {
  let shared: SharedBackends;
  let nodes: ClusterNode[];

  beforeEach(async () => {
    jest.useFakeTimers({ doNotFake: ['setImmediate', 'nextTick', 'queueMicrotask'] });
    shared = sharedBackends();
    nodes = [];
    for (const id of ['node-a', 'node-b', 'node-c']) {
      const node = await startClusterNode(id, shared, TEST_TIMINGS);
      expect(await node.host.resumeRunningSessions()).toBe(0);
      nodes.push(node);
    }
  });

  afterEach(async () => {
    for (const node of nodes) {
      await node.host.shutdown();
      await node.rpc.close();
    }
    jest.restoreAllMocks();
    jest.useRealTimers();
  });

  const row = async (id: string) => (await shared.sessions.findById(id)) as Session;
  const engines = async () => Promise.all(nodes.map(async (node) => (await node.host.stats()).activeEngines));

  /** A session started and ready on `node`. */
  async function readyOn(node: ClusterNode): Promise<Session> {
    const stamp = shared.clock.now().toISOString();
    const session = aSession({ status: 'initializing', createdAt: stamp, updatedAt: stamp });
    await shared.sessions.create(session);
    shared.network.storeCredentials(session.id, { phone: '4915100000001', pushName: 'Ann' });
    await node.host.handleStart({
      type: 'session.start',
      sessionId: session.id,
      reason: 'requested',
      requestedAt: stamp,
    });
    await until(async () => (await row(session.id)).status === 'ready', 'ready');
    return session;
  }

  /** Every command waiting on the shared queue, taken off it. */
  async function queued(): Promise<CommandOf<'session.start'>[]> {
    const received = await shared.commands.receive({ maxMessages: 10, waitTimeSeconds: 0 });
    for (const item of received) await shared.commands.ack(item.message);
    return received.flatMap((item) =>
      item.ok && item.command.type === 'session.start' ? [item.command] : [],
    );
  }

  it('queues a resume for the released session; the host that receives it adopts it at once, once', async () => {
    const [a, b, c] = nodes as [ClusterNode, ClusterNode, ClusterNode];
    const session = await readyOn(a);
    const created = jest.spyOn(TestEngineFactory.prototype, 'create');
    await a.host.shutdown();
    expect(await row(session.id)).toMatchObject({ status: 'ready', nodeId: null, leaseExpiresAt: null });
    const [handOver, ...more] = await queued();
    expect(more).toEqual([]);
    expect(handOver).toMatchObject({ type: 'session.start', sessionId: session.id, reason: 'resume' });

    // Delivered to two hosts at once (a redelivery): one claim wins, the other stands aside.
    const command = handOver as CommandOf<'session.start'>;
    await Promise.all([b.host.handleCommand(command), c.host.handleCommand(command)]);
    await until(async () => (await row(session.id)).status === 'ready', 'ready again');
    const owner = (await row(session.id)).nodeId;
    expect(['node-b', 'node-c']).toContain(owner);
    expect(await engines()).toEqual(owner === 'node-b' ? [0, 1, 0] : [0, 0, 1]);
    // Once more, and a sweep round on every live host: still the one engine, the lease where it was.
    await b.host.handleCommand(command);
    shared.clock.advance(TEST_TIMINGS.sweepMs);
    await jest.advanceTimersByTimeAsync(TEST_TIMINGS.sweepMs);
    expect(await engines()).toEqual(owner === 'node-b' ? [0, 1, 0] : [0, 0, 1]);
    expect(created.mock.calls.filter(([engineSession]) => engineSession.id === session.id)).toHaveLength(1);
    expect(await row(session.id)).toMatchObject({ status: 'ready', nodeId: owner });
  });

  it('a session stopped before its hand-over arrives is not started again', async () => {
    const [a, b] = nodes as [ClusterNode, ClusterNode];
    const session = await readyOn(a);
    await a.host.shutdown();
    // What a stop writes: disconnected, and no owner.
    await shared.sessions.update(session.id, { status: 'disconnected' });
    const [command] = await queued();
    await b.host.handleCommand(command as CommandOf<'session.start'>);
    expect(await row(session.id)).toMatchObject({ status: 'disconnected', nodeId: null });
    expect(await engines()).toEqual([0, 0, 0]);
  });

  it('a session no host ran is not handed over: a shutdown queues nothing', async () => {
    const [a] = nodes as [ClusterNode];
    await shared.sessions.create(aSession({ status: 'created' }));
    await a.host.shutdown();
    expect(await queued()).toEqual([]);
  });
});
