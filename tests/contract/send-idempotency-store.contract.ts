/**
 * Behaviour every SendIdempotencyStore adapter must show: a key claimed once per session (atomically, of racing
 * claims exactly one wins), the standing record answered to later claims, expiry after 24 hours from the claim,
 * release only by the message id that holds the key, session delete, and the data export's paged read of the live
 * keys, restored exactly by a claim at their own instant.
 */
import {
  SEND_IDEMPOTENCY_TTL_MS,
  type SendIdempotencyStore,
} from '#shared/ports/send-idempotency-store.port.js';
import { T0 } from '#tests/helpers/builders.js';
import { type OpenedWithSessions, withTwoSessions } from './two-sessions.js';

/** The store under test plus the session store of the same data store, because keys belong to sessions. */
export type OpenedSendIdempotencyStore = OpenedWithSessions<SendIdempotencyStore>;

const HASH_A = 'a'.repeat(64);
const HASH_B = 'b'.repeat(64);
const M1 = '50000000-0000-4000-8000-000000000001';
const M2 = '50000000-0000-4000-8000-000000000002';
const M3 = '50000000-0000-4000-8000-000000000003';

/** T0 plus `ms`. */
const atMs = (ms: number) => new Date(T0.getTime() + ms);

export function sendIdempotencyStoreContract(
  name: string,
  open: () => Promise<OpenedSendIdempotencyStore>,
): void {
  describe(`SendIdempotencyStore contract: ${name}`, () => {
    const t = withTwoSessions(open);
    const claim = (sessionId: string, key: string, requestHash: string, messageId: string, now: Date) =>
      t.store.claim({ sessionId, key, requestHash, messageId }, now);

    it('claims a new key, then answers the standing record to every later claim, writing nothing', async () => {
      expect(await claim(t.s1, 'order-1', HASH_A, M1, T0)).toEqual({ claimed: true });
      const standing = { requestHash: HASH_A, messageId: M1, createdAt: T0.toISOString() };
      expect(await claim(t.s1, 'order-1', HASH_A, M2, atMs(1000))).toEqual({
        claimed: false,
        existing: standing,
      });
      expect(await claim(t.s1, 'order-1', HASH_B, M3, atMs(2000))).toEqual({
        claimed: false,
        existing: standing,
      });
    });

    it('keeps keys per session and tells keys apart exactly (case, punctuation, 255 characters)', async () => {
      const long = `${'~'.repeat(254)}!`;
      for (const key of ['order-1', 'ORDER-1', 'order-1.', long]) {
        expect(await claim(t.s1, key, HASH_A, M1, T0)).toEqual({ claimed: true });
      }
      expect(await claim(t.s2, 'order-1', HASH_B, M2, T0)).toEqual({ claimed: true });
      expect(await claim(t.s1, long, HASH_B, M3, T0)).toMatchObject({
        claimed: false,
        existing: { messageId: M1, requestHash: HASH_A },
      });
      expect(await claim(t.s2, 'order-1', HASH_A, M3, T0)).toMatchObject({
        existing: { messageId: M2, requestHash: HASH_B },
      });
    });

    it('holds a key for 24 hours from its claim and lets it be claimed afresh from the instant it expires', async () => {
      expect(await claim(t.s1, 'k', HASH_A, M1, T0)).toEqual({ claimed: true });
      expect(await claim(t.s1, 'k', HASH_B, M2, atMs(SEND_IDEMPOTENCY_TTL_MS - 1))).toMatchObject({
        claimed: false,
        existing: { messageId: M1 },
      });
      expect(await claim(t.s1, 'k', HASH_B, M2, atMs(SEND_IDEMPOTENCY_TTL_MS))).toEqual({
        claimed: true,
      });
      const renewed = atMs(SEND_IDEMPOTENCY_TTL_MS + 5);
      expect(await claim(t.s1, 'k', HASH_A, M3, renewed)).toEqual({
        claimed: false,
        existing: {
          requestHash: HASH_B,
          messageId: M2,
          createdAt: atMs(SEND_IDEMPOTENCY_TTL_MS).toISOString(),
        },
      });
    });

    it('gives racing claims of one key exactly one win, and every loser the winner’s record', async () => {
      const ids = Array.from({ length: 6 }, (_, i) => `60000000-0000-4000-8000-00000000000${i}`);
      const claims = await Promise.all(ids.map((id) => claim(t.s1, 'race', HASH_A, id, T0)));
      expect(claims.filter((claim) => claim.claimed)).toHaveLength(1);
      const winner = ids[claims.findIndex((claim) => claim.claimed)];
      for (const claim of claims) {
        if (!claim.claimed) expect(claim.existing.messageId).toBe(winner);
      }
    });

    it('releases a key only for the message that holds it, so it can be claimed again', async () => {
      await claim(t.s1, 'k', HASH_A, M1, T0);
      expect(await t.store.release(t.s1, 'k', M2)).toBe(false);
      expect(await t.store.release(t.s2, 'k', M1)).toBe(false);
      expect(await claim(t.s1, 'k', HASH_B, M2, atMs(1))).toMatchObject({ claimed: false });
      expect(await t.store.release(t.s1, 'k', M1)).toBe(true);
      expect(await t.store.release(t.s1, 'k', M1)).toBe(false);
      expect(await claim(t.s1, 'k', HASH_B, M2, atMs(2))).toEqual({ claimed: true });
      expect(await t.store.release(t.s1, 'k', M1)).toBe(false);
      expect(await claim(t.s1, 'k', HASH_A, M3, atMs(3))).toMatchObject({
        existing: { messageId: M2, requestHash: HASH_B },
      });
    });

    it('deletes every key of a session, and only those', async () => {
      for (const key of ['a', 'b', 'c']) await claim(t.s1, key, HASH_A, M1, T0);
      await claim(t.s2, 'a', HASH_B, M2, T0);
      expect(await t.store.deleteBySession(t.s1)).toBe(3);
      expect(await t.store.deleteBySession(t.s1)).toBe(0);
      expect(await claim(t.s1, 'a', HASH_B, M3, atMs(1))).toEqual({ claimed: true });
      expect(await claim(t.s2, 'a', HASH_A, M3, atMs(1))).toMatchObject({
        existing: { messageId: M2 },
      });
    });

    it("lists a session's live keys a page at a time in key order; a claim at their instant restores them", async () => {
      for (const key of ['c', 'a', 'b']) await claim(t.s1, key, HASH_A, M1, atMs(1000));
      await claim(t.s1, 'old', HASH_B, M2, T0);
      await claim(t.s2, 'a', HASH_B, M3, T0);
      const now = atMs(SEND_IDEMPOTENCY_TTL_MS + 500);
      const first = await t.store.listBySession(t.s1, { now, afterKey: null, limit: 2 });
      const row = (key: string) => ({
        sessionId: t.s1,
        key,
        requestHash: HASH_A,
        messageId: M1,
        createdAt: atMs(1000).toISOString(),
      });
      expect(first).toEqual([row('a'), row('b')]);
      expect(await t.store.listBySession(t.s1, { now, afterKey: 'b', limit: 2 })).toEqual([row('c')]);
      expect(await t.store.listBySession(t.s1, { now, afterKey: 'c', limit: 2 })).toEqual([]);
      // `old` expired at `now`: not listed. At T0 every key of s1 is live.
      expect(await t.store.listBySession(t.s1, { now: T0, afterKey: null, limit: 10 })).toHaveLength(4);
      await t.store.deleteBySession(t.s1);
      for (const { createdAt, ...key } of first) await t.store.claim(key, new Date(createdAt));
      expect(await t.store.listBySession(t.s1, { now, afterKey: null, limit: 10 })).toEqual(first);
      expect(await t.store.listBySession(t.s2, { now: T0, afterKey: null, limit: 10 })).toEqual([
        { sessionId: t.s2, key: 'a', requestHash: HASH_B, messageId: M3, createdAt: T0.toISOString() },
      ]);
    });
  });
}
