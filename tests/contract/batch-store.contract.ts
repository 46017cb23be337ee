/**
 * Behaviour every BatchStore adapter must show: batches named by (session, batchId), batchIds unique per session
 * (also when creates race), a compare-and-set update of the changing fields only, the unfinished batches of a
 * session (oldest first) and of all sessions (count), session delete, copies, and a batch at its largest (100
 * texts of 4096 characters, emoji included) read back intact; and the data export's paged read of a session's
 * batches, which `create` restores exactly (unfinished ones listed and counted again).
 */
import type { BatchStore } from '#shared/ports/batch-store.port.js';
import { aBatch, at } from '#tests/helpers/builders.js';
import { type OpenedWithSessions, withTwoSessions } from './two-sessions.js';

/** The store under test plus the session store of the same data store, because batches belong to sessions. */
export type OpenedBatchStore = OpenedWithSessions<BatchStore>;

const UNKNOWN = '00000000-0000-4000-8000-000000000000';
const TAKEN = { status: 400, code: 'BATCH_ID_TAKEN' };

export function batchStoreContract(name: string, open: () => Promise<OpenedBatchStore>): void {
  describe(`BatchStore contract: ${name}`, () => {
    const opened = withTwoSessions(open);
    let store: BatchStore;
    let s1: string;
    let s2: string;
    beforeEach(() => {
      ({ store, s1, s2 } = opened);
    });

    it('finds a created batch with every field intact; another session or batchId finds nothing', async () => {
      const batch = aBatch({
        sessionId: s1,
        batchId: 'spring.sale~2025',
        messages: [
          {
            chatId: '15550001000@c.us',
            type: 'text',
            content: { text: 'Hallo {{ name }} ✈ 😀', mentions: ['15550002000@c.us'] },
            variables: { name: 'Zoë', unused: '' },
          },
          { chatId: '120363012345678901@g.us', type: 'text', content: { text: 'plain' } },
        ],
        options: { delayBetweenMessages: 60_000, randomizeDelay: true, stopOnError: true },
        createdAt: at(1),
        updatedAt: at(1),
      });
      await store.create(batch);
      expect(await store.find(s1, batch.batchId)).toEqual(batch);
      expect(await store.find(s2, batch.batchId)).toBeNull();
      expect(await store.find(s1, 'other')).toBeNull();
      expect(await store.find(UNKNOWN, batch.batchId)).toBeNull();
    });

    it('refuses a batchId the session used already with BATCH_ID_TAKEN; another session may use it', async () => {
      const first = aBatch({ sessionId: s1, batchId: 'b1' });
      await store.create(first);
      await expect(store.create(aBatch({ sessionId: s1, batchId: 'b1' }))).rejects.toMatchObject(TAKEN);
      await store.create(aBatch({ sessionId: s2, batchId: 'b1' }));
      expect(await store.find(s1, 'b1')).toEqual(first);
      expect((await store.find(s2, 'b1'))?.id).not.toBe(first.id);
    });

    it('lets exactly one of racing creates take a batchId', async () => {
      const results = await Promise.allSettled(
        Array.from({ length: 5 }, () => store.create(aBatch({ sessionId: s1, batchId: 'race' }))),
      );
      expect(results.filter((result) => result.status === 'fulfilled')).toHaveLength(1);
      for (const result of results) {
        if (result.status === 'rejected') expect(result.reason).toMatchObject(TAKEN);
      }
      expect(await store.countUnfinished()).toBe(1);
    });

    it('updates the changing fields only while status and index are what the writer read', async () => {
      const batch = aBatch({ sessionId: s1 });
      await store.create(batch);
      const started = { ...batch, status: 'processing' as const, startedAt: at(5), updatedAt: at(5) };
      expect(await store.update(started, { status: 'pending', currentIndex: 0 })).toBe(true);
      const recorded = {
        ...started,
        currentIndex: 1,
        progress: { ...batch.progress, sent: 1, pending: batch.progress.pending - 1 },
        results: [{ chatId: '15550001000@c.us', status: 'sent' as const, messageId: 'WA-1', sentAt: at(6) }],
        updatedAt: at(6),
        // Fixed at create: an update never changes them.
        messages: [],
        options: { ...batch.options, stopOnError: true },
        createdAt: at(99),
      };
      expect(await store.update(recorded, { status: 'processing', currentIndex: 0 })).toBe(true);
      const stored = await store.find(s1, batch.batchId);
      expect(stored).toEqual({
        ...recorded,
        messages: batch.messages,
        options: batch.options,
        createdAt: batch.createdAt,
      });
      // A writer that read an older state changes nothing.
      const stale = { ...recorded, status: 'cancelled' as const, completedAt: at(7) };
      expect(await store.update(stale, { status: 'processing', currentIndex: 0 })).toBe(false);
      expect(await store.update(stale, { status: 'pending', currentIndex: 1 })).toBe(false);
      expect(await store.find(s1, batch.batchId)).toEqual(stored);
      expect(await store.update({ ...stale, sessionId: s2 }, { status: 'processing', currentIndex: 1 })).toBe(
        false,
      );
      expect(
        await store.update({ ...stale, batchId: 'nope' }, { status: 'processing', currentIndex: 1 }),
      ).toBe(false);
    });

    it('lets exactly one of two writers that read the same state write', async () => {
      const batch = aBatch({ sessionId: s1 });
      await store.create(batch);
      const read = { status: batch.status, currentIndex: 0 };
      const writes = await Promise.all([
        store.update({ ...batch, status: 'cancelled', completedAt: at(1) }, read),
        store.update({ ...batch, status: 'processing', startedAt: at(1) }, read),
      ]);
      expect(writes.filter(Boolean)).toHaveLength(1);
    });

    it('lists the unfinished batches of a session oldest first, and counts those of every session', async () => {
      const [older, newer, done, other] = [
        aBatch({ sessionId: s1, batchId: 'b-older', createdAt: at(1) }),
        aBatch({ sessionId: s1, batchId: 'b-newer', createdAt: at(2) }),
        aBatch({ sessionId: s1, batchId: 'b-done', createdAt: at(0) }),
        aBatch({ sessionId: s2, batchId: 'b-other', createdAt: at(0) }),
      ];
      for (const batch of [newer, done, older, other]) await store.create(batch!);
      expect(await store.countUnfinished()).toBe(4);
      const started = { ...newer!, status: 'processing' as const };
      expect(await store.update(started, { status: 'pending', currentIndex: 0 })).toBe(true);
      expect(
        await store.update({ ...done!, status: 'completed' }, { status: 'pending', currentIndex: 0 }),
      ).toBe(true);
      expect(await store.listUnfinished(s1)).toEqual([older, started]);
      expect(await store.listUnfinished(s2)).toEqual([other]);
      expect(await store.countUnfinished()).toBe(3);
      expect(
        await store.update({ ...other!, status: 'failed' }, { status: 'pending', currentIndex: 0 }),
      ).toBe(true);
      expect(await store.listUnfinished(s2)).toEqual([]);
      expect(await store.countUnfinished()).toBe(2);
    });

    it('deletes every batch of a session, and only those; its batchIds are free again', async () => {
      await store.create(aBatch({ sessionId: s1, batchId: 'a' }));
      await store.create(aBatch({ sessionId: s1, batchId: 'b', messages: aBatch({}, 100).messages }));
      const kept = aBatch({ sessionId: s2, batchId: 'a' });
      await store.create(kept);
      expect(await store.deleteBySession(s1)).toBe(2);
      expect(await store.find(s1, 'a')).toBeNull();
      expect(await store.find(s1, 'b')).toBeNull();
      expect(await store.listUnfinished(s1)).toEqual([]);
      expect(await store.find(s2, 'a')).toEqual(kept);
      expect(await store.countUnfinished()).toBe(1);
      const again = aBatch({ sessionId: s1, batchId: 'b', messages: aBatch({}, 1).messages });
      await store.create(again);
      expect(await store.find(s1, 'b')).toEqual(again);
    });

    it('reads back a batch at its largest intact: 100 texts of 4096 characters, emoji straddling any cut', async () => {
      const emoji = '😀'.repeat(2047);
      const messages = Array.from({ length: 100 }, (_item, i) => ({
        chatId: `1555${String(1_000_000 + i)}@c.us`,
        type: 'text' as const,
        content: { text: `${'x'.repeat(i % 2)}${emoji}${i % 2 ? '' : 'y'}` },
      }));
      const batch = aBatch({ sessionId: s1, messages });
      await store.create(batch);
      expect(await store.find(s1, batch.batchId)).toEqual(batch);
    });

    it('hands out copies: mutating an argument or a result does not change the store', async () => {
      const batch = aBatch({ sessionId: s1 });
      await store.create(batch);
      const stored = structuredClone(batch);
      batch.progress.sent = 99;
      batch.messages.pop();
      const found = await store.find(s1, batch.batchId);
      found!.results.push({ chatId: 'x', status: 'sent' });
      (await store.listUnfinished(s1))[0]!.progress.failed = 7;
      expect(await store.find(s1, batch.batchId)).toEqual(stored);
    });

    it('lists every batch of a session a page at a time in batchId order; create restores them exactly', async () => {
      const done = aBatch({ sessionId: s1, batchId: 'b-done' }, 1);
      const finished = { ...done, status: 'completed' as const, currentIndex: 1, completedAt: at(5) };
      const running = {
        ...aBatch({ sessionId: s1, batchId: 'a-running', createdAt: at(1) }, 3),
        status: 'processing' as const,
        currentIndex: 1,
        results: [{ chatId: '15550001000@c.us', status: 'sent' as const, messageId: 'WA-1' }],
        startedAt: at(2),
      };
      const pending = aBatch({ sessionId: s1, batchId: 'c-pending', createdAt: at(3) });
      for (const batch of [finished, pending, running]) await store.create(batch);
      await store.create(aBatch({ sessionId: s2, batchId: 'a-other' }));
      expect(await store.listBySession(s1, null, 2)).toEqual([running, finished]);
      expect(await store.listBySession(s1, 'b-done', 2)).toEqual([pending]);
      expect(await store.listBySession(s1, 'c-pending', 2)).toEqual([]);
      expect(await store.listBySession(UNKNOWN, null, 2)).toEqual([]);
      await store.deleteBySession(s1);
      for (const batch of [running, finished, pending]) await store.create(batch);
      expect(await store.listBySession(s1, null, 10)).toEqual([running, finished, pending]);
      expect(await store.listUnfinished(s1)).toEqual([running, pending]);
      expect(await store.countUnfinished()).toBe(3);
    });
  });
}
