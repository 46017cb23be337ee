/**
 * The lease keeper against the memory session store and a test clock: renewal rounds are run by calling
 * renewAll() (the hook the timer uses), so lease arithmetic and losses are exact instants, never waits.
 */
import { afterEach, beforeEach, describe, expect, it, jest } from '@jest/globals';
import { LeaseKeeper } from '#host/sessions/lease-keeper.js';
import { MemorySessionStore } from '#shared/adapters/memory/memory-stores.js';
import type { Session } from '#shared/domain/session.js';
import { silentLogger } from '#shared/ports/logger.port.js';
import type { LeaseClaim } from '#shared/ports/session-store.port.js';
import { aSession, T0 } from '#tests/helpers/builders.js';
import { TestClock } from '#tests/helpers/test-clock.js';

const TTL_MS = 30_000;
const RENEW_MS = 10_000;
const NODE_URL = 'http://node-a.internal:2886';

/** The memory store; renewLease and releaseLease fail while `failing` is set (a store outage). */
class FlakySessionStore extends MemorySessionStore {
  failing = false;
  releases = 0;

  override async renewLease(id: string, claim: LeaseClaim) {
    if (this.failing) throw new Error('store unavailable');
    return super.renewLease(id, claim);
  }

  override async releaseLease(id: string, nodeId: string) {
    this.releases++;
    if (this.failing) throw new Error('store unavailable');
    return super.releaseLease(id, nodeId);
  }
}

describe('LeaseKeeper', () => {
  let sessions: FlakySessionStore;
  let clock: TestClock;
  let lost: string[];
  let keeper: LeaseKeeper;

  beforeEach(() => {
    sessions = new FlakySessionStore();
    clock = new TestClock(T0);
    lost = [];
    keeper = new LeaseKeeper(
      {
        sessions,
        clock,
        logger: silentLogger,
        nodeId: 'node-a',
        nodeUrl: NODE_URL,
        ttlMs: TTL_MS,
        renewMs: RENEW_MS,
      },
      (sessionId) => lost.push(sessionId),
    );
  });

  async function seed(overrides: Partial<Session> = {}): Promise<Session> {
    const session = aSession({
      status: 'ready',
      createdAt: T0.toISOString(),
      updatedAt: T0.toISOString(),
      ...overrides,
    });
    await sessions.create(session);
    return session;
  }

  const row = async (id: string) => (await sessions.findById(id)) as Session;
  const iso = (msAfterT0: number) => new Date(T0.getTime() + msAfterT0).toISOString();

  /** Another node takes the session's lease at the clock's now (valid only once this node's has lapsed). */
  async function takenBy(nodeId: string, sessionId: string): Promise<void> {
    const claim = { nodeId, nodeUrl: `http://${nodeId}.internal:2886`, now: clock.now(), ttlMs: TTL_MS };
    expect((await sessions.claimLease(sessionId, claim)).outcome).toBe('updated');
  }

  describe('claim', () => {
    it('takes an unowned session: node, url, claimedAt = now, leaseExpiresAt = now + ttl', async () => {
      const session = await seed();
      clock.advance(5_000);
      const result = await keeper.claim(session.id);
      const expected = {
        nodeId: 'node-a',
        nodeUrl: NODE_URL,
        claimedAt: iso(5_000),
        leaseExpiresAt: iso(35_000),
      };
      expect(result).toEqual({ outcome: 'claimed', session: { ...session, ...expected } });
      expect(await row(session.id)).toEqual({ ...session, ...expected });
      expect(keeper.holds(session.id)).toBe(true);
    });

    it("is refused while another node's lease is live, with the row as it stands", async () => {
      const session = await seed();
      await takenBy('node-b', session.id);
      const result = await keeper.claim(session.id);
      expect(result).toEqual({ outcome: 'refused', session: await row(session.id) });
      expect(keeper.holds(session.id)).toBe(false);
    });

    it('is refused when the status is not one of expectStatus', async () => {
      const session = await seed({ status: 'disconnected' });
      await expect(keeper.claim(session.id, ['initializing'])).resolves.toMatchObject({ outcome: 'refused' });
      expect((await row(session.id)).nodeId).toBeNull();
      expect(keeper.holds(session.id)).toBe(false);
    });

    it('answers not_found for a missing session', async () => {
      await expect(keeper.claim('00000000-0000-4000-8000-000000000000')).resolves.toEqual({
        outcome: 'not_found',
      });
    });
  });

  it('a renewal round extends every held lease from the current instant; claimedAt and updatedAt stay', async () => {
    const first = await seed();
    const second = await seed();
    await keeper.claim(first.id);
    await keeper.claim(second.id);
    clock.advance(RENEW_MS);
    await keeper.renewAll();
    for (const session of [first, second]) {
      expect(await row(session.id)).toMatchObject({
        nodeId: 'node-a',
        claimedAt: iso(0),
        leaseExpiresAt: iso(RENEW_MS + TTL_MS),
        updatedAt: session.updatedAt,
      });
    }
    expect(lost).toEqual([]);
  });

  it('release clears the lease fields; a second release writes nothing', async () => {
    const session = await seed();
    await keeper.claim(session.id);
    await keeper.release(session.id);
    expect(await row(session.id)).toEqual(session);
    expect(keeper.holds(session.id)).toBe(false);
    await keeper.release(session.id);
    expect(sessions.releases).toBe(1);
  });

  it('releaseAll gives back every lease held', async () => {
    const ids = [(await seed()).id, (await seed()).id];
    for (const id of ids) await keeper.claim(id);
    await keeper.releaseAll();
    for (const id of ids) expect((await row(id)).nodeId).toBeNull();
  });

  it('releaseAll answers the rows it released', async () => {
    const session = await seed();
    await keeper.claim(session.id);
    expect(await keeper.releaseAll()).toEqual([session]);
  });

  it('a claim answered after releaseAll began is given back at once, not kept unrenewed past the shutdown', async () => {
    const session = await seed();
    let proceed = () => {};
    const claimLease = sessions.claimLease.bind(sessions);
    sessions.claimLease = async (id, claim, options) => {
      await new Promise<void>((resolve) => {
        proceed = resolve;
      });
      return claimLease(id, claim, options);
    };
    const claiming = keeper.claim(session.id);
    await keeper.releaseAll();
    proceed();
    expect(await claiming).toEqual({ outcome: 'closed' });
    expect(keeper.holds(session.id)).toBe(false);
    expect(await row(session.id)).toEqual(session);
    // And no claim is even tried from then on.
    expect(await keeper.claim(session.id)).toEqual({ outcome: 'closed' });
    expect((await row(session.id)).nodeId).toBeNull();
  });

  it('a failing release is not thrown: the lease is forgotten here and lapses in the store', async () => {
    const session = await seed();
    await keeper.claim(session.id);
    sessions.failing = true;
    await expect(keeper.release(session.id)).resolves.toBeNull();
    expect(keeper.holds(session.id)).toBe(false);
    expect((await row(session.id)).nodeId).toBe('node-a');
  });

  describe('loss', () => {
    it('when another node took the row: onLost once, and the keeper writes nothing to it', async () => {
      const session = await seed();
      await keeper.claim(session.id);
      clock.advance(TTL_MS);
      await takenBy('node-b', session.id);
      const theirs = await row(session.id);
      await keeper.renewAll();
      expect(lost).toEqual([session.id]);
      expect(keeper.holds(session.id)).toBe(false);
      await keeper.renewAll();
      await keeper.release(session.id);
      expect(lost).toEqual([session.id]);
      expect(await row(session.id)).toEqual(theirs);
    });

    it('when the row was deleted', async () => {
      const session = await seed();
      await keeper.claim(session.id);
      await sessions.delete(session.id);
      await keeper.renewAll();
      expect(lost).toEqual([session.id]);
      expect(keeper.holds(session.id)).toBe(false);
    });

    it('when the lease was released behind its back (the row names no node)', async () => {
      const session = await seed();
      await keeper.claim(session.id);
      await sessions.releaseLease(session.id, 'node-a');
      await keeper.renewAll();
      expect(lost).toEqual([session.id]);
    });

    it('a failed renewal with time for another attempt is not a loss', async () => {
      const session = await seed();
      await keeper.claim(session.id); // expires at 30 s
      sessions.failing = true;
      clock.advance(RENEW_MS); // next attempt at 20 s < 30 s
      await keeper.renewAll();
      expect(lost).toEqual([]);
      expect(keeper.holds(session.id)).toBe(true);
      // The store recovers: the next round extends from its own instant.
      sessions.failing = false;
      clock.advance(RENEW_MS);
      await keeper.renewAll();
      expect((await row(session.id)).leaseExpiresAt).toBe(iso(2 * RENEW_MS + TTL_MS));
    });

    it('a failed renewal that leaves no attempt before the lease runs out is a loss', async () => {
      const session = await seed();
      await keeper.claim(session.id); // expires at 30 s
      sessions.failing = true;
      clock.advance(RENEW_MS);
      await keeper.renewAll(); // 10 s: next attempt at 20 s, still in time
      clock.advance(RENEW_MS);
      await keeper.renewAll(); // 20 s: the next attempt (30 s) would be too late
      expect(lost).toEqual([session.id]);
      expect(keeper.holds(session.id)).toBe(false);
      sessions.failing = false;
      await keeper.renewAll();
      expect(lost).toEqual([session.id]);
    });

    it('a release during a renewal in flight is not reported as a loss', async () => {
      const session = await seed();
      await keeper.claim(session.id);
      let proceed = () => {};
      const renewLease = sessions.renewLease.bind(sessions);
      sessions.renewLease = async (id, claim) => {
        await new Promise<void>((resolve) => {
          proceed = resolve;
        });
        return renewLease(id, claim);
      };
      const round = keeper.renewAll();
      await keeper.release(session.id);
      proceed();
      await round;
      expect(lost).toEqual([]);
      expect((await row(session.id)).nodeId).toBeNull();
    });
  });

  describe('the renewal timer', () => {
    beforeEach(() => {
      jest.useFakeTimers({ doNotFake: ['setImmediate', 'nextTick', 'queueMicrotask'] });
    });
    afterEach(() => {
      jest.useRealTimers();
    });

    it('renews every renewMs after start() and not after stop()', async () => {
      const session = await seed();
      await keeper.claim(session.id);
      keeper.start();
      clock.advance(RENEW_MS);
      await jest.advanceTimersByTimeAsync(RENEW_MS);
      await keeper.stop();
      expect((await row(session.id)).leaseExpiresAt).toBe(iso(RENEW_MS + TTL_MS));
      clock.advance(RENEW_MS);
      await jest.advanceTimersByTimeAsync(RENEW_MS * 3);
      expect((await row(session.id)).leaseExpiresAt).toBe(iso(RENEW_MS + TTL_MS));
    });
  });
});
