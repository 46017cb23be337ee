/**
 * Behaviour every StatusStore adapter must show: a status stored once per (session, network id) with every field
 * intact, its `status.received` outbox entry committed with it (none for a duplicate), the list newest first with
 * pages and a poster filter, expired statuses never answered and swept by `deleteExpired`, deletes, sessions kept
 * apart, and where the store knows sessions an unknown one refused.
 */
import { randomUUID } from 'node:crypto';
import { STATUS_LIFETIME_MS, type StatusRecord, statusReceivedData } from '#shared/domain/status-update.js';
import { NotFoundError } from '#shared/errors/app-error.js';
import type { EventOutbox, OutboxEntry } from '#shared/ports/event-outbox.port.js';
import type { StatusStore } from '#shared/ports/status-store.port.js';
import { at } from '#tests/helpers/builders.js';
import { type OpenedWithSessions, withTwoSessions } from './two-sessions.js';

export type OpenedStatusStore = OpenedWithSessions<StatusStore> & { outbox: EventOutbox };

const ALICE = '15550001111@c.us';
const ALICE_LID = '201234567890123@lid';
const BOB = '15550002222@c.us';
const UNKNOWN_SESSION = '00000000-0000-4000-8000-000000000000';
/**
 * Near the real present: DynamoDB (Local too) drops items whose `ttl` passed, and the adapter sets it a week past
 * expiry, so statuses dated long ago would vanish under the test on their own.
 */
const T0 = Math.floor(Date.now() / 1000) * 1000;
const ALL = { limit: 1000, offset: 0 };

function aStatus(sessionId: string, statusId: string, postedAt: number, over: Partial<StatusRecord> = {}) {
  return {
    sessionId,
    statusId,
    contactId: ALICE,
    pushName: 'Alice',
    fromMe: false,
    type: 'text',
    text: `status ${statusId}`,
    caption: null,
    backgroundColor: '#112233',
    font: 2,
    media: null,
    mediaPath: null,
    recipients: [],
    postedAt,
    expiresAt: postedAt + STATUS_LIFETIME_MS,
    ...over,
  } satisfies StatusRecord;
}

const entryOf = (status: StatusRecord): OutboxEntry => ({
  id: randomUUID(),
  event: {
    event: 'status.received',
    sessionId: status.sessionId,
    occurredAt: at(1),
    data: statusReceivedData(status, null),
  },
  createdAt: at(1),
});

/** Registers the StatusStore contract for the adapter `open` opens. */
export function statusStoreContract(
  name: string,
  open: () => Promise<OpenedStatusStore>,
  options: { knowsSessions: boolean },
): void {
  describe(`StatusStore contract: ${name}`, () => {
    let outbox: EventOutbox;
    const t = withTwoSessions(async () => {
      const opened = await open();
      outbox = opened.outbox;
      return opened;
    });
    const ids = (statuses: StatusRecord[]) => statuses.map((status) => status.statusId);

    it('stores a status once per session and network id, with every field intact', async () => {
      const image = aStatus(t.s1, 'S1', T0, {
        type: 'image',
        text: null,
        caption: 'Ünïcode ✓',
        backgroundColor: null,
        font: null,
        media: { mimetype: 'image/jpeg', sizeBytes: 12, omitted: 'too_large' },
        mediaPath: `${t.s1}/S1.jpg`,
        fromMe: true,
        recipients: [ALICE, BOB],
      });
      expect(await t.store.insert(image)).toBe(true);
      expect(await t.store.insert({ ...image, caption: 'again' })).toBe(false);
      expect(await t.store.insert(aStatus(t.s2, 'S1', T0))).toBe(true);
      expect(await t.store.find(t.s1, 'S1', T0)).toEqual(image);
      expect(await t.store.find(t.s1, 'S2', T0)).toBeNull();
    });

    it('stores the outbox entry with the status, and none for a duplicate', async () => {
      const status = aStatus(t.s1, 'S1', T0);
      let built: OutboxEntry | undefined;
      expect(await t.store.insert(status, (s) => (built = entryOf(s)))).toBe(true);
      expect(await t.store.insert(status, entryOf)).toBe(false);
      const claimed = await outbox.claimStale({
        olderThan: new Date(at(400)),
        now: new Date(at(500)),
        limit: 10,
      });
      expect(claimed).toEqual([built]);
    });

    it('lists newest first in pages, by poster when asked, each session its own', async () => {
      for (const [id, offset] of [
        ['A', 3],
        ['C', 1],
        ['B', 3],
        ['D', 2],
      ] as const) {
        await t.store.insert(aStatus(t.s1, id, T0 + offset * 1000, id === 'D' ? { contactId: BOB } : {}));
      }
      await t.store.insert(aStatus(t.s1, 'L', T0, { contactId: ALICE_LID }));
      await t.store.insert(aStatus(t.s2, 'X', T0 + 9000));
      const now = T0 + 10_000;
      expect(ids(await t.store.list({ sessionId: t.s1, now }, ALL))).toEqual(['A', 'B', 'D', 'C', 'L']);
      expect(ids(await t.store.list({ sessionId: t.s1, now }, { limit: 2, offset: 1 }))).toEqual(['B', 'D']);
      const alice = { sessionId: t.s1, now, contactId: [ALICE, ALICE_LID] };
      expect(ids(await t.store.list(alice, ALL))).toEqual(['A', 'B', 'C', 'L']);
      expect(await t.store.list({ sessionId: t.s1, now, contactId: [] }, ALL)).toEqual([]);
      expect(ids(await t.store.list({ sessionId: t.s2, now }, ALL))).toEqual(['X']);
    });

    it('never answers a status past its expiry, and sweeps the expired of every session', async () => {
      await t.store.insert(aStatus(t.s1, 'OLD', T0));
      await t.store.insert(aStatus(t.s2, 'OLD2', T0 + 1));
      await t.store.insert(aStatus(t.s1, 'NEW', T0 + 60_000));
      const lastShown = T0 + STATUS_LIFETIME_MS - 1;
      expect(await t.store.find(t.s1, 'OLD', lastShown)).not.toBeNull();
      const expiry = T0 + STATUS_LIFETIME_MS + 1;
      expect(await t.store.find(t.s1, 'OLD', expiry)).toBeNull();
      expect(ids(await t.store.list({ sessionId: t.s1, now: expiry }, ALL))).toEqual(['NEW']);
      const swept = await t.store.deleteExpired(expiry, 1);
      expect(swept).toHaveLength(1);
      const rest = await t.store.deleteExpired(expiry, 100);
      expect(ids([...swept, ...rest]).sort()).toEqual(['OLD', 'OLD2']);
      expect(await t.store.deleteExpired(expiry, 100)).toEqual([]);
      expect(await t.store.find(t.s1, 'NEW', expiry)).not.toBeNull();
      expect(await t.store.delete(t.s1, 'OLD')).toBeNull();
    });

    it('deletes one status, answering it, and every status of a session', async () => {
      const status = aStatus(t.s1, 'S1', T0);
      await t.store.insert(status);
      await t.store.insert(aStatus(t.s1, 'S2', T0));
      await t.store.insert(aStatus(t.s2, 'S3', T0));
      expect(await t.store.delete(t.s1, 'S1')).toEqual(status);
      expect(await t.store.delete(t.s1, 'S1')).toBeNull();
      expect(await t.store.deleteBySession(t.s1)).toBe(1);
      expect(await t.store.list({ sessionId: t.s1, now: T0 }, ALL)).toEqual([]);
      expect(ids(await t.store.list({ sessionId: t.s2, now: T0 }, ALL))).toEqual(['S3']);
    });

    if (options.knowsSessions) {
      it('refuses a status of an unknown session with NotFoundError', async () => {
        await expect(t.store.insert(aStatus(UNKNOWN_SESSION, 'S1', T0))).rejects.toBeInstanceOf(
          NotFoundError,
        );
      });
    }
  });
}
