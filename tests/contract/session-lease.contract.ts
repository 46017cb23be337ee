/**
 * The multi-node lease half of the SessionStore contract (DESIGN §3): claim, renew and release as conditional
 * writes, and the owner and lease conditions of `update`. Run from `sessionStoreContract`, so every adapter gets
 * it. Instants are fixed (T0-based), so the lease arithmetic never depends on the wall clock.
 */
import type { Session } from '#shared/domain/session.js';
import type { LeaseClaim, SessionStore, SessionUpdateOptions } from '#shared/ports/session-store.port.js';
import { aSession, at, T0 } from '#tests/helpers/builders.js';

const TTL_MS = 60_000;
const MISSING = '00000000-0000-4000-8000-000000000000';

/** The instant `seconds` after T0. */
const instant = (seconds: number): Date => new Date(T0.getTime() + seconds * 1000);

/** A claim by `nodeId` at `seconds` after T0 with a 60 s lease. */
function claimBy(nodeId: string, seconds = 0): LeaseClaim {
  return {
    nodeId,
    nodeUrl: `http://${nodeId}.internal:2886`,
    now: instant(seconds),
    ttlMs: TTL_MS,
  };
}

/** The lease fields a successful claim by `claim` writes. */
function leaseOf(claim: LeaseClaim): Partial<Session> {
  return {
    nodeId: claim.nodeId,
    nodeUrl: claim.nodeUrl,
    claimedAt: claim.now.toISOString(),
    leaseExpiresAt: new Date(claim.now.getTime() + claim.ttlMs).toISOString(),
  };
}

const NO_LEASE = { nodeId: null, nodeUrl: null, claimedAt: null, leaseExpiresAt: null };

export function sessionLeaseContract(
  name: string,
  open: () => Promise<{ store: SessionStore; close(): Promise<void> }>,
): void {
  describe(`SessionStore lease contract: ${name}`, () => {
    let store: SessionStore;
    let close: () => Promise<void>;

    beforeEach(async () => {
      ({ store, close } = await open());
    });
    afterEach(async () => {
      await close();
    });

    /** A stored session; updatedAt differs from every lease instant, so a lease op touching it shows. */
    async function seed(overrides: Partial<Session> = {}): Promise<Session> {
      const session = aSession({ status: 'ready', createdAt: at(-200), updatedAt: at(-100), ...overrides });
      await store.create(session);
      return session;
    }

    /** A session whose lease `nodeId` took at `seconds` and that runs out 60 s later. */
    const leasedTo = (nodeId: string, seconds = 0) => seed(leaseOf(claimBy(nodeId, seconds)));

    /** Asserts the write answered `outcome` with `expected`, and that the stored row is `expected`. */
    async function expectOutcome(
      outcome: string,
      result: Promise<unknown>,
      expected: Session,
    ): Promise<void> {
      expect(await result).toEqual({ outcome, session: expected });
      expect(await store.findById(expected.id)).toEqual(expected);
    }
    const expectUpdated = (result: Promise<unknown>, expected: Session) =>
      expectOutcome('updated', result, expected);
    /** A conflict answers the row as it stands, and nothing was written. */
    const expectConflict = (result: Promise<unknown>, expected: Session) =>
      expectOutcome('conflict', result, expected);

    describe('claimLease', () => {
      it('claims an unowned row: the four lease fields, nothing else, updatedAt untouched', async () => {
        const session = await seed();
        const claim = claimBy('node-a', 10);
        await expectUpdated(store.claimLease(session.id, claim), { ...session, ...leaseOf(claim) });
      });

      it("refuses while another node's lease is live, up to its last millisecond", async () => {
        const session = await leasedTo('node-a');
        await expectConflict(store.claimLease(session.id, claimBy('node-b', 30)), session);
        await expectConflict(store.claimLease(session.id, claimBy('node-b', 59.999)), session);
      });

      it("takes another node's lease from the instant it runs out", async () => {
        const session = await leasedTo('node-a');
        const claim = claimBy('node-b', 60);
        await expectUpdated(store.claimLease(session.id, claim), { ...session, ...leaseOf(claim) });
      });

      it('treats a nodeId without an expiry as held, never as free', async () => {
        const session = await seed({ nodeId: 'node-a', nodeUrl: 'http://node-a.internal:2886' });
        await expectConflict(store.claimLease(session.id, claimBy('node-b', 3600)), session);
      });

      it('lets the holder claim again while live: new claimedAt, expiry and URL', async () => {
        const session = await leasedTo('node-a');
        const again = { ...claimBy('node-a', 20), nodeUrl: 'http://node-a.moved:2886' };
        await expectUpdated(store.claimLease(session.id, again), { ...session, ...leaseOf(again) });
      });

      it('lets exactly one of several concurrent claims win, on a lapsed lease or an unowned row', async () => {
        for (const session of [await leasedTo('node-old', -120), await seed()]) {
          const claims = ['node-a', 'node-b', 'node-c', 'node-d'].map((node) => claimBy(node));
          const results = await Promise.all(claims.map((claim) => store.claimLease(session.id, claim)));
          expect(results.map((result) => result.outcome).sort()).toEqual([
            'conflict',
            'conflict',
            'conflict',
            'updated',
          ]);
          const winner = (results.find((result) => result.outcome === 'updated') as { session: Session })
            .session;
          expect(claims.map((claim) => claim.nodeId)).toContain(winner.nodeId);
          expect(await store.findById(session.id)).toEqual(winner);
        }
      });

      it('claims only in one of expectStatus, and even then only a free lease', async () => {
        const session = await seed({ status: 'disconnected' });
        const claim = claimBy('node-a');
        await expectConflict(store.claimLease(session.id, claim, { expectStatus: ['ready'] }), session);
        await expectConflict(store.claimLease(session.id, claim, { expectStatus: [] }), session);
        const held = { ...session, ...leaseOf(claim) };
        const either = { expectStatus: ['ready', 'disconnected'] } as const;
        await expectUpdated(store.claimLease(session.id, claim, either), held);
        await expectConflict(store.claimLease(session.id, claimBy('node-b', 1), either), held);
      });

      it('answers not_found for an unknown id, with or without expectStatus', async () => {
        expect(await store.claimLease(MISSING, claimBy('node-a'))).toEqual({ outcome: 'not_found' });
        const ready = { expectStatus: ['ready'] } as const;
        expect(await store.claimLease(MISSING, claimBy('node-a'), ready)).toEqual({ outcome: 'not_found' });
        expect(await store.findById(MISSING)).toBeNull();
      });
    });

    describe('renewLease', () => {
      it('extends the lease from the new now, refreshes the URL, keeps claimedAt and updatedAt', async () => {
        const session = await leasedTo('node-a');
        const renewal = { ...claimBy('node-a', 20), nodeUrl: 'http://node-a.moved:2886' };
        const renewed = { ...session, nodeUrl: renewal.nodeUrl, leaseExpiresAt: at(80) };
        await expectUpdated(store.renewLease(session.id, renewal), renewed);
      });

      it('renews a lapsed lease that no other node has taken', async () => {
        const session = await leasedTo('node-a');
        const renewed = { ...session, leaseExpiresAt: at(150) };
        await expectUpdated(store.renewLease(session.id, claimBy('node-a', 90)), renewed);
      });

      it('answers conflict and writes nothing once another node took the lease', async () => {
        const session = await leasedTo('node-a');
        const claim = claimBy('node-b', 61);
        const taken = { ...session, ...leaseOf(claim) };
        await expectUpdated(store.claimLease(session.id, claim), taken);
        await expectConflict(store.renewLease(session.id, claimBy('node-a', 62)), taken);
      });

      it('answers conflict for a released row and writes nothing', async () => {
        const session = await leasedTo('node-a');
        const released = { ...session, ...NO_LEASE };
        await expectUpdated(store.releaseLease(session.id, 'node-a'), released);
        await expectConflict(store.renewLease(session.id, claimBy('node-a', 10)), released);
      });

      it('answers not_found for an unknown id', async () => {
        expect(await store.renewLease(MISSING, claimBy('node-a'))).toEqual({ outcome: 'not_found' });
        expect(await store.findById(MISSING)).toBeNull();
      });
    });

    describe('releaseLease', () => {
      it('clears all four lease fields for the holder and leaves the rest, updatedAt included', async () => {
        const session = await leasedTo('node-a');
        await expectUpdated(store.releaseLease(session.id, 'node-a'), { ...session, ...NO_LEASE });
      });

      it('answers conflict for a node that does not hold the lease, even a lapsed one, or an unowned row', async () => {
        const session = await leasedTo('node-a', -600);
        await expectConflict(store.releaseLease(session.id, 'node-b'), session);
        const unowned = await seed();
        await expectConflict(store.releaseLease(unowned.id, 'node-a'), unowned);
      });

      it('frees the row for another node at once', async () => {
        const session = await leasedTo('node-a');
        await store.releaseLease(session.id, 'node-a');
        const claim = claimBy('node-b', 1);
        await expectUpdated(store.claimLease(session.id, claim), { ...session, ...leaseOf(claim) });
      });

      it('answers not_found for an unknown id', async () => {
        expect(await store.releaseLease(MISSING, 'node-a')).toEqual({ outcome: 'not_found' });
      });
    });

    describe('update with expectOwner', () => {
      it('writes when the row is the node’s, lapsed or not', async () => {
        const session = await leasedTo('node-a', -600);
        const patch = { phone: '49151', updatedAt: at(5) };
        await expectUpdated(store.update(session.id, patch, { expectOwner: 'node-a' }), {
          ...session,
          ...patch,
        });
      });

      it('answers conflict and writes nothing for another node’s row or an unowned one', async () => {
        const owned = await leasedTo('node-a');
        await expectConflict(store.update(owned.id, { phone: '1' }, { expectOwner: 'node-b' }), owned);
        const unowned = await seed();
        await expectConflict(store.update(unowned.id, { phone: '1' }, { expectOwner: 'node-a' }), unowned);
      });

      it('combines with expectStatus: both must hold', async () => {
        const session = await leasedTo('node-a');
        const patch = { status: 'disconnected' as const };
        const update = (options: SessionUpdateOptions) => store.update(session.id, patch, options);
        await expectConflict(update({ expectOwner: 'node-a', expectStatus: ['created'] }), session);
        await expectConflict(update({ expectOwner: 'node-b', expectStatus: ['ready'] }), session);
        await expectUpdated(update({ expectOwner: 'node-a', expectStatus: ['ready'] }), {
          ...session,
          ...patch,
        });
      });

      it('answers not_found for an unknown id', async () => {
        const result = await store.update(MISSING, { phone: '1' }, { expectOwner: 'node-a' });
        expect(result).toEqual({ outcome: 'not_found' });
      });
    });

    describe('update with expectUnownedAt', () => {
      it('writes an unowned row', async () => {
        const session = await seed();
        const result = store.update(session.id, { status: 'failed' }, { expectUnownedAt: instant(0) });
        await expectUpdated(result, { ...session, status: 'failed' });
      });

      it('writes a row whose lease ran out at or before the instant, and leaves the lease fields', async () => {
        const session = await leasedTo('node-a');
        for (const seconds of [60, 3600]) {
          const patch = { lastError: `at ${seconds}` };
          const result = store.update(session.id, patch, { expectUnownedAt: instant(seconds) });
          await expectUpdated(result, { ...session, ...patch });
        }
      });

      it('answers conflict and writes nothing while a lease is live, or held without an expiry', async () => {
        const live = await leasedTo('node-a');
        const failLive = store.update(live.id, { status: 'failed' }, { expectUnownedAt: instant(59.999) });
        await expectConflict(failLive, live);
        const endless = await seed({ nodeId: 'node-a' });
        const failEndless = store.update(endless.id, { status: 'failed' }, { expectUnownedAt: instant(0) });
        await expectConflict(failEndless, endless);
      });

      it('combines with expectStatus and expectOwner: all must hold', async () => {
        const session = await leasedTo('node-a', -600);
        const patch = { status: 'failed' as const };
        const update = (options: SessionUpdateOptions) =>
          store.update(session.id, patch, { expectUnownedAt: instant(0), ...options });
        await expectConflict(update({ expectStatus: ['created'] }), session);
        await expectConflict(update({ expectOwner: 'node-b', expectStatus: ['ready'] }), session);
        await expectUpdated(update({ expectOwner: 'node-a', expectStatus: ['ready'] }), {
          ...session,
          ...patch,
        });
      });

      it('answers conflict for a live lease even when owner and status match', async () => {
        const session = await leasedTo('node-a');
        const options = {
          expectUnownedAt: instant(0),
          expectOwner: 'node-a',
          expectStatus: ['ready'],
        } as const;
        await expectConflict(store.update(session.id, { status: 'failed' }, options), session);
      });

      it('answers not_found for an unknown id', async () => {
        const result = await store.update(MISSING, { status: 'failed' }, { expectUnownedAt: instant(0) });
        expect(result).toEqual({ outcome: 'not_found' });
      });
    });
  });
}
