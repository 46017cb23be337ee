/**
 * A host's start command and the same host's adoption sweep finding one new session at once (the multi-node test
 * against the simulator caught it: the sweep lists a session that is `initializing` with no lease while its start
 * command is being carried out). One engine must run, and the lease must stay with it.
 */
import { afterEach, beforeEach, expect, it, jest } from '@jest/globals';
import { TestEngineFactory } from '#host/engines/test/test-engine.js';
import type { Session } from '#shared/domain/session.js';
import { aSession } from '#tests/helpers/builders.js';
import {
  type ClusterNode,
  type SharedBackends,
  sharedBackends,
  startClusterNode,
  TEST_TIMINGS as TIMINGS,
} from '#tests/helpers/cluster-node.js';

let shared: SharedBackends;
let a: ClusterNode;

beforeEach(async () => {
  jest.useFakeTimers({ doNotFake: ['setImmediate', 'nextTick', 'queueMicrotask'] });
  shared = sharedBackends();
  a = await startClusterNode('node-a', shared, TIMINGS);
  expect(await a.host.resumeRunningSessions()).toBe(0);
});

afterEach(async () => {
  await a.host.shutdown();
  await a.rpc.close();
  jest.restoreAllMocks();
  jest.useRealTimers();
});

async function settled(id: string): Promise<Session> {
  for (let turn = 0; turn < 20_000; turn++) {
    const session = (await shared.sessions.findById(id)) as Session;
    if (session.status === 'ready') return session;
    await new Promise((resolve) => setImmediate(resolve));
  }
  throw new Error('never ready');
}

it.each([
  ['the start command', false],
  ['the sweep', true],
])('%s first: one engine, and the lease stays with it', async (_first, sweepFirst) => {
  const stamp = shared.clock.now().toISOString();
  const session = aSession({ status: 'initializing', createdAt: stamp, updatedAt: stamp });
  await shared.sessions.create(session);
  shared.network.storeCredentials(session.id, { phone: '4915100000001', pushName: 'Ann' });
  const created = jest.spyOn(TestEngineFactory.prototype, 'create');

  const start = () =>
    a.host.handleStart({
      type: 'session.start',
      sessionId: session.id,
      reason: 'requested',
      requestedAt: stamp,
    });
  // A sweep is what resumeRunningSessions runs once the timers have started.
  const sweep = () => a.host.resumeRunningSessions();
  await Promise.all(sweepFirst ? [sweep(), start()] : [start(), sweep()]);

  expect(await settled(session.id)).toMatchObject({ nodeId: 'node-a' });
  expect(created.mock.calls.filter(([engineSession]) => engineSession.id === session.id)).toHaveLength(1);
  expect((await a.host.stats()).activeEngines).toBe(1);
  // Renewal rounds and sweeps later, the running engine still has its lease (none gave it back under it).
  for (let round = 0; round < 3; round++) {
    shared.clock.advance(TIMINGS.leaseRenewMs);
    await jest.advanceTimersByTimeAsync(TIMINGS.leaseRenewMs);
  }
  expect(await shared.sessions.findById(session.id)).toMatchObject({
    status: 'ready',
    nodeId: 'node-a',
    leaseExpiresAt: new Date(shared.clock.now().getTime() + TIMINGS.leaseTtlMs).toISOString(),
  });
  expect(created.mock.calls.filter(([engineSession]) => engineSession.id === session.id)).toHaveLength(1);
});
