/**
 * How a send request learns its outcome: in-process waiters resolve on the host's notification (or a probe that
 * finds the row already settled) and time out to false, leaving nothing behind; across processes the request asks
 * the session's owner over the host RPC, and reads the row as it stands when there is no owner to ask.
 */
import { randomUUID } from 'node:crypto';
import { describe, expect, it } from '@jest/globals';
import { HostRpcMessageOutcomes } from '#shared/adapters/host-rpc/host-rpc-message-outcomes.js';
import { InProcessMessageOutcomes } from '#shared/adapters/memory/in-process-message-outcomes.js';
import { MemorySessionStore } from '#shared/adapters/memory/memory-stores.js';
import { UnavailableError } from '#shared/errors/app-error.js';
import type { HostRpcClient } from '#shared/ports/host-rpc.port.js';
import { silentLogger } from '#shared/ports/logger.port.js';
import { aSession, T0 } from '#tests/helpers/builders.js';
import { TestClock } from '#tests/helpers/test-clock.js';

describe('InProcessMessageOutcomes', () => {
  it('resolves every waiter of a message once the host notifies, and only those', async () => {
    const outcomes = new InProcessMessageOutcomes();
    const first = outcomes.settled('s1', 'm1', 5_000);
    const second = outcomes.settled('s1', 'm1', 5_000);
    const other = outcomes.settled('s1', 'm2', 20);
    outcomes.notify('s1', 'm1');
    await expect(Promise.all([first, second, other])).resolves.toEqual([true, true, false]);
    expect(outcomes.waiting).toBe(0);
  });

  it('answers false when the wait passes without news', async () => {
    const outcomes = new InProcessMessageOutcomes();
    const started = performance.now();
    await expect(outcomes.settled('s1', 'm1', 30)).resolves.toBe(false);
    expect(performance.now() - started).toBeGreaterThanOrEqual(25);
    expect(outcomes.waiting).toBe(0);
  });

  it('resolves at once when the probe finds the message already settled', async () => {
    const outcomes = new InProcessMessageOutcomes();
    await expect(outcomes.settled('s1', 'm1', 5_000, async () => true)).resolves.toBe(true);
    expect(outcomes.waiting).toBe(0);
  });

  it('still hears a notification while its probe finds the message pending', async () => {
    const outcomes = new InProcessMessageOutcomes();
    const waiting = outcomes.settled('s1', 'm1', 5_000, async () => {
      outcomes.notify('s1', 'm1');
      return false;
    });
    await expect(waiting).resolves.toBe(true);
  });
});

describe('HostRpcMessageOutcomes', () => {
  const OWNER = 'http://node-a.internal:2786';

  async function setUp(lease: 'live' | 'none', answer: () => Promise<unknown>) {
    const sessions = new MemorySessionStore();
    const clock = new TestClock(T0);
    const session = aSession(
      lease === 'live'
        ? {
            status: 'ready',
            nodeId: 'node-a',
            nodeUrl: OWNER,
            claimedAt: T0.toISOString(),
            leaseExpiresAt: new Date(T0.getTime() + 60_000).toISOString(),
          }
        : { status: 'ready' },
    );
    await sessions.create(session);
    const calls: unknown[] = [];
    const rpc: HostRpcClient = {
      call: async (nodeUrl, operation, input, options) => {
        calls.push({ nodeUrl, operation, input, options });
        return (await answer()) as never;
      },
    };
    const outcomes = new HostRpcMessageOutcomes({ sessions, clock, rpc, logger: silentLogger });
    return { session, calls, outcomes };
  }

  it("asks the session's owner to answer once the message settles, with a deadline past the wait", async () => {
    const { session, calls, outcomes } = await setUp('live', async () => ({ settled: true }));
    const messageId = randomUUID();
    await expect(outcomes.settled(session.id, messageId, 5_000)).resolves.toBe(true);
    expect(calls).toEqual([
      {
        nodeUrl: OWNER,
        operation: 'message.awaitOutcome',
        input: { sessionId: session.id, messageId, timeoutMs: 5_000 },
        options: { timeoutMs: 7_000 },
      },
    ]);
  });

  it('answers false without a call when no host owns the session', async () => {
    const { session, calls, outcomes } = await setUp('none', async () => ({ settled: true }));
    await expect(outcomes.settled(session.id, randomUUID(), 5_000)).resolves.toBe(false);
    expect(calls).toEqual([]);
  });

  it('answers false when the owner does not answer (the request then reads the row)', async () => {
    const { session, outcomes } = await setUp('live', async () => {
      throw new UnavailableError('HOST_UNAVAILABLE', 'timeout');
    });
    await expect(outcomes.settled(session.id, randomUUID(), 5_000)).resolves.toBe(false);
  });
});
