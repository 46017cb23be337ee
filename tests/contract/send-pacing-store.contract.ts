/**
 * Behaviour every SendPacingStore adapter must show: sends counted per session and UTC day up to the daily cap and,
 * for cold sends, the cold cap (a refusal changes nothing, a new day starts over, concurrent sends never overshoot);
 * the failure streak that opens the breaker once, refusals while it is open, a new streak after the cooldown, a
 * success closing it; session delete; and the data export's read and exact restore of a session's state.
 */
import type { PacingAdmissionRequest, SendPacingStore } from '#shared/ports/send-pacing-store.port.js';
import { T0 } from '#tests/helpers/builders.js';
import { type OpenedWithSessions, withTwoSessions } from './two-sessions.js';

/** The store under test plus the session store of the same data store, because pacing belongs to sessions. */
export type OpenedSendPacingStore = OpenedWithSessions<SendPacingStore>;

const NOW = T0.getTime();
const DAY = '2025-01-01';
const NEXT_DAY = '2025-01-02';
const send = (overrides: Partial<PacingAdmissionRequest> = {}): PacingAdmissionRequest => ({
  day: DAY,
  dailyCap: 3,
  cold: false,
  coldCap: 2,
  now: NOW,
  ...overrides,
});
const failure = (now = NOW, threshold = 3) => ({ threshold, cooldownMs: 60_000, now });
const ADMITTED = { admitted: true };

export function sendPacingStoreContract(name: string, open: () => Promise<OpenedSendPacingStore>): void {
  describe(`SendPacingStore contract: ${name}`, () => {
    const t = withTwoSessions(open);

    it('admits sends up to the daily cap, then refuses with the count, changing nothing', async () => {
      for (let i = 0; i < 3; i++) expect(await t.store.admit(t.s1, send())).toEqual(ADMITTED);
      expect(await t.store.admit(t.s1, send())).toEqual({ admitted: false, rule: 'daily_cap', count: 3 });
      expect(await t.store.admit(t.s1, send())).toEqual({ admitted: false, rule: 'daily_cap', count: 3 });
      // A higher cap (the session aged a day within the same UTC day cannot, but the policy may change) sees 3.
      expect(await t.store.admit(t.s1, send({ dailyCap: 4 }))).toEqual(ADMITTED);
      expect(await t.store.admit(t.s1, send({ dailyCap: 4 }))).toEqual({
        admitted: false,
        rule: 'daily_cap',
        count: 4,
      });
    });

    it('counts each session on its own', async () => {
      for (let i = 0; i < 3; i++) await t.store.admit(t.s1, send());
      expect(await t.store.admit(t.s2, send())).toEqual(ADMITTED);
      expect(await t.store.admit(t.s1, send())).toMatchObject({ admitted: false, rule: 'daily_cap' });
    });

    it('starts the counts over on a new UTC day', async () => {
      for (let i = 0; i < 3; i++) await t.store.admit(t.s1, send({ cold: i < 2 }));
      expect(await t.store.admit(t.s1, send({ day: NEXT_DAY, cold: true }))).toEqual(ADMITTED);
      expect(await t.store.admit(t.s1, send({ day: NEXT_DAY, cold: true }))).toEqual(ADMITTED);
      expect(await t.store.admit(t.s1, send({ day: NEXT_DAY, cold: true }))).toEqual({
        admitted: false,
        rule: 'cold_daily_cap',
        count: 2,
      });
    });

    it('caps cold sends at the cold cap while other sends still pass, and counts cold only with a cold cap', async () => {
      expect(await t.store.admit(t.s1, send({ dailyCap: 10, cold: true, coldCap: null }))).toEqual(ADMITTED);
      expect(await t.store.admit(t.s1, send({ dailyCap: 10, cold: true, coldCap: 1 }))).toEqual(ADMITTED);
      expect(await t.store.admit(t.s1, send({ dailyCap: 10, cold: true, coldCap: 1 }))).toEqual({
        admitted: false,
        rule: 'cold_daily_cap',
        count: 1,
      });
      expect(await t.store.admit(t.s1, send({ dailyCap: 10, cold: false, coldCap: 1 }))).toEqual(ADMITTED);
      // The refused cold send was not counted: 3 sends so far, so a cap of 4 takes exactly one more.
      expect(await t.store.admit(t.s1, send({ dailyCap: 4 }))).toEqual(ADMITTED);
      expect(await t.store.admit(t.s1, send({ dailyCap: 4 }))).toMatchObject({ rule: 'daily_cap', count: 4 });
    });

    it('refuses on the daily cap before the cold cap', async () => {
      await t.store.admit(t.s1, send({ dailyCap: 1, cold: true, coldCap: 1 }));
      expect(await t.store.admit(t.s1, send({ dailyCap: 1, cold: true, coldCap: 1 }))).toEqual({
        admitted: false,
        rule: 'daily_cap',
        count: 1,
      });
    });

    it('lets exactly the cap through when sends race', async () => {
      const results = await Promise.all(
        Array.from({ length: 8 }, () => t.store.admit(t.s1, send({ dailyCap: 3, cold: true, coldCap: 5 }))),
      );
      expect(results.filter((result) => result.admitted)).toHaveLength(3);
      expect(await t.store.admit(t.s1, send({ dailyCap: 3 }))).toMatchObject({ rule: 'daily_cap', count: 3 });
    });

    it('opens the breaker on the threshold-th failure in a row, once, and refuses sends until the cooldown ends', async () => {
      expect(await t.store.recordFailure(t.s1, failure())).toEqual({
        consecutiveFailures: 1,
        tripped: false,
      });
      expect(await t.store.recordFailure(t.s1, failure())).toEqual({
        consecutiveFailures: 2,
        tripped: false,
      });
      expect(await t.store.admit(t.s1, send())).toEqual(ADMITTED);
      expect(await t.store.recordFailure(t.s1, failure(NOW + 10))).toEqual({
        consecutiveFailures: 3,
        tripped: true,
      });
      expect(await t.store.recordFailure(t.s1, failure(NOW + 20))).toEqual({
        consecutiveFailures: 4,
        tripped: false,
      });
      const openUntil = NOW + 10 + 60_000;
      expect(await t.store.admit(t.s1, send({ now: NOW + 30 }))).toEqual({
        admitted: false,
        rule: 'breaker_open',
        openUntil,
      });
      expect(await t.store.admit(t.s2, send({ now: NOW + 30 }))).toEqual(ADMITTED);
      // The refusal counted nothing: 1 send so far, so 2 more fit once the breaker lets sends through.
      expect(await t.store.admit(t.s1, send({ now: openUntil }))).toEqual(ADMITTED);
      expect(await t.store.admit(t.s1, send({ now: openUntil }))).toEqual(ADMITTED);
      expect(await t.store.admit(t.s1, send({ now: openUntil }))).toMatchObject({ rule: 'daily_cap' });
    });

    it('starts a new streak with the first failure after the cooldown', async () => {
      for (let i = 0; i < 3; i++) await t.store.recordFailure(t.s1, failure());
      const served = NOW + 60_000;
      expect(await t.store.recordFailure(t.s1, failure(served))).toEqual({
        consecutiveFailures: 1,
        tripped: false,
      });
      expect(await t.store.admit(t.s1, send({ now: served }))).toEqual(ADMITTED);
      await t.store.recordFailure(t.s1, failure(served + 1));
      expect(await t.store.recordFailure(t.s1, failure(served + 2))).toEqual({
        consecutiveFailures: 3,
        tripped: true,
      });
      expect(await t.store.admit(t.s1, send({ now: served + 3 }))).toMatchObject({ rule: 'breaker_open' });
    });

    it('trips once when failures reaching the threshold race', async () => {
      const outcomes = await Promise.all(
        Array.from({ length: 6 }, () => t.store.recordFailure(t.s1, failure())),
      );
      expect(outcomes.filter((outcome) => outcome.tripped)).toHaveLength(1);
      expect(outcomes.map((outcome) => outcome.consecutiveFailures).sort()).toEqual([1, 2, 3, 4, 5, 6]);
    });

    it('ends the streak and closes the breaker on a success', async () => {
      await t.store.recordFailure(t.s1, failure());
      await t.store.recordFailure(t.s1, failure());
      await t.store.recordSuccess(t.s1);
      expect(await t.store.recordFailure(t.s1, failure())).toEqual({
        consecutiveFailures: 1,
        tripped: false,
      });
      await t.store.recordFailure(t.s1, failure(NOW, 1));
      expect(await t.store.admit(t.s1, send({ now: NOW + 1 }))).toMatchObject({ rule: 'breaker_open' });
      await t.store.recordSuccess(t.s1);
      expect(await t.store.admit(t.s1, send({ now: NOW + 1 }))).toEqual(ADMITTED);
      await t.store.recordSuccess(t.s2);
      expect(await t.store.admit(t.s2, send())).toEqual(ADMITTED);
    });

    it("deletes a session's state and nothing else", async () => {
      await t.store.admit(t.s1, send({ dailyCap: 1 }));
      await t.store.recordFailure(t.s1, failure(NOW, 1));
      await t.store.admit(t.s2, send({ dailyCap: 1 }));
      expect(await t.store.deleteBySession(t.s1)).toBe(1);
      expect(await t.store.deleteBySession(t.s1)).toBe(0);
      expect(await t.store.admit(t.s1, send({ dailyCap: 1 }))).toEqual(ADMITTED);
      expect(await t.store.admit(t.s2, send({ dailyCap: 1 }))).toMatchObject({ rule: 'daily_cap' });
    });

    it("reads a session's state as stored and restores it exactly, replacing what the session had", async () => {
      expect(await t.store.find(t.s1)).toBeNull();
      await t.store.admit(t.s1, send({ cold: true }));
      await t.store.admit(t.s1, send());
      await t.store.recordFailure(t.s1, failure(NOW, 1));
      const stored = { sessionId: t.s1, day: DAY, sent: 2, cold: 1, failures: 1, openUntil: NOW + 60_000 };
      expect(await t.store.find(t.s1)).toEqual(stored);
      await t.store.deleteBySession(t.s1);
      await t.store.admit(t.s2, send());
      await t.store.restore(stored);
      expect(await t.store.find(t.s1)).toEqual(stored);
      // The restored breaker refuses as the stored one did; the other session is untouched.
      expect(await t.store.admit(t.s1, send({ now: NOW + 1 }))).toMatchObject({ rule: 'breaker_open' });
      expect(await t.store.find(t.s2)).toEqual({
        ...stored,
        sessionId: t.s2,
        sent: 1,
        cold: 0,
        failures: 0,
        openUntil: null,
      });
      const idle = { sessionId: t.s2, day: null, sent: 0, cold: 0, failures: 4, openUntil: null };
      await t.store.restore(idle);
      expect(await t.store.find(t.s2)).toEqual(idle);
      expect(await t.store.recordFailure(t.s2, failure(NOW, 10))).toEqual({
        consecutiveFailures: 5,
        tripped: false,
      });
    });
  });
}
