/**
 * Behaviour every DeliveryFailureStore adapter must show: records kept as written, listed most recent first (all,
 * or one session's), cleared by idempotency key after a later success, and pruned by age.
 */
import type { DeliveryFailure } from '#shared/domain/webhook.js';
import { ConflictError } from '#shared/errors/app-error.js';
import type { DeliveryFailureStore } from '#shared/ports/delivery-failure-store.port.js';
import { aDeliveryFailure, at, T0 } from '#tests/helpers/builders.js';

export interface OpenedDeliveryFailureStore {
  store: DeliveryFailureStore;
  close(): Promise<void>;
}

const ALL = { limit: 1000, offset: 0 };
const S1 = '10000000-0000-4000-8000-000000000001';
const S2 = '10000000-0000-4000-8000-000000000002';

export function deliveryFailureStoreContract(
  name: string,
  open: () => Promise<OpenedDeliveryFailureStore>,
): void {
  describe(`DeliveryFailureStore contract: ${name}`, () => {
    let store: DeliveryFailureStore;
    let close: () => Promise<void>;

    beforeEach(async () => {
      ({ store, close } = await open());
    });
    afterEach(async () => {
      await close();
    });

    async function seed(...failures: DeliveryFailure[]): Promise<DeliveryFailure[]> {
      for (const failure of failures) await store.insert(failure);
      return failures;
    }
    const ids = (failures: DeliveryFailure[]): string[] => failures.map((failure) => failure.id);

    it('lists a stored record with every field intact, a never-attempted one included', async () => {
      const failure = aDeliveryFailure({
        sessionId: S1,
        event: 'session.status',
        url: 'https://hooks.example.com/a?b=c',
        deliveryId: null,
        attempts: 0,
        lastStatusCode: null,
        lastError: 'ConcurrencyLimiter queue full',
        createdAt: at(1),
      });
      await seed(failure);
      expect(await store.list({}, ALL)).toEqual([failure]);
    });

    it('rejects a retried insert (a taken id) with ConflictError, keeping the first', async () => {
      const [first] = await seed(aDeliveryFailure());
      await expect(store.insert({ ...first!, lastError: 'other' })).rejects.toBeInstanceOf(ConflictError);
      expect(await store.list({}, ALL)).toEqual([first]);
    });

    it('lists most recent first (createdAt, then id), one session or all, a page at a time', async () => {
      const old = aDeliveryFailure({ sessionId: S1, createdAt: at(1) });
      const tieA = aDeliveryFailure({
        sessionId: S2,
        id: '20000000-0000-4000-8000-000000000000',
        createdAt: at(2),
      });
      const tieB = aDeliveryFailure({
        sessionId: S1,
        id: '30000000-0000-4000-8000-000000000000',
        createdAt: at(2),
      });
      const newest = aDeliveryFailure({ sessionId: S1, createdAt: at(3) });
      await seed(tieA, newest, old, tieB);
      expect(ids(await store.list({}, ALL))).toEqual([newest.id, tieB.id, tieA.id, old.id]);
      expect(ids(await store.list({ sessionId: S1 }, ALL))).toEqual([newest.id, tieB.id, old.id]);
      expect(ids(await store.list({}, { limit: 2, offset: 1 }))).toEqual([tieB.id, tieA.id]);
      expect(ids(await store.list({ sessionId: S1 }, { limit: 5, offset: 2 }))).toEqual([old.id]);
      expect(await store.list({ sessionId: '10000000-0000-4000-8000-000000000009' }, ALL)).toEqual([]);
    });

    it('deletes every record of an idempotency key, answering how many', async () => {
      const [, , other] = await seed(
        aDeliveryFailure({ idempotencyKey: 'msg_s1_A_w1', attempts: 0 }),
        aDeliveryFailure({ idempotencyKey: 'msg_s1_A_w1' }),
        aDeliveryFailure({ idempotencyKey: 'msg_s1_B_w1' }),
      );
      expect(await store.deleteByIdempotencyKey('msg_s1_A_w1')).toBe(2);
      expect(await store.deleteByIdempotencyKey('msg_s1_A_w1')).toBe(0);
      expect(await store.list({}, ALL)).toEqual([other]);
    });

    it('prunes records created before the cutoff, answering how many', async () => {
      const [, , kept, newer] = await seed(
        aDeliveryFailure({ createdAt: at(-10) }),
        aDeliveryFailure({ createdAt: at(-1) }),
        aDeliveryFailure({ createdAt: at(0) }),
        aDeliveryFailure({ createdAt: at(5) }),
      );
      expect(await store.pruneOlderThan(T0, 100)).toBe(2);
      expect(await store.pruneOlderThan(T0, 100)).toBe(0);
      expect(ids(await store.list({}, ALL))).toEqual([newer!.id, kept!.id]);
    });

    it('prunes at most `limit` records a call, oldest first, of every session', async () => {
      const [, second, third, kept] = await seed(
        aDeliveryFailure({ sessionId: S2, createdAt: at(-30) }),
        aDeliveryFailure({ sessionId: S1, createdAt: at(-20) }),
        aDeliveryFailure({ sessionId: S2, createdAt: at(-10) }),
        aDeliveryFailure({ sessionId: S1, createdAt: at(1) }),
      );
      expect(await store.pruneOlderThan(T0, 1)).toBe(1);
      expect(ids(await store.list({}, ALL))).toEqual([kept!.id, third!.id, second!.id]);
      expect(await store.pruneOlderThan(T0, 2)).toBe(2);
      expect(await store.pruneOlderThan(T0, 2)).toBe(0);
      expect(ids(await store.list({}, ALL))).toEqual([kept!.id]);
    });
  });
}
