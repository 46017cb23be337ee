/**
 * Behaviour every EventOutbox adapter must show, together with the message store of the same data store: entries
 * written with their message row (or not at all when the row is a duplicate), appended on their own, claimed by a
 * sweep oldest first and only once per period, removed when completed; and the data export's scan of every entry
 * with its claim state, restored exactly (a sweep then claims them as it would have).
 */
import { randomUUID } from 'node:crypto';
import { type GatewayEvent, messageEventData } from '#shared/domain/events.js';
import type { Message } from '#shared/domain/message.js';
import { personLookup } from '#shared/domain/person-ids.js';
import { ConflictError } from '#shared/errors/app-error.js';
import type { EventOutbox, OutboxEntry, StoredOutboxEntry } from '#shared/ports/event-outbox.port.js';
import type { MessageStore } from '#shared/ports/message-store.port.js';
import type { SessionStore } from '#shared/ports/session-store.port.js';
import { aMessage, aSession, at } from '#tests/helpers/builders.js';

export interface OpenedEventOutbox {
  outbox: EventOutbox;
  messages: MessageStore;
  sessions: SessionStore;
  close(): Promise<void>;
}

const statusEvent = (sessionId: string, occurredAt: string): GatewayEvent => ({
  event: 'session.status',
  sessionId,
  occurredAt,
  data: { sessionId, status: 'ready' },
});

const receivedEvent = (message: Message): GatewayEvent => ({
  event: 'message.received',
  sessionId: message.sessionId,
  occurredAt: message.createdAt,
  data: messageEventData(message, personLookup(new Map())),
});

const entryOf = (event: GatewayEvent, createdAt: string): OutboxEntry => ({
  id: randomUUID(),
  event,
  createdAt,
});

/** Claims everything due before far in the future (the claim instant is `at(500)`). */
const claimAll = (outbox: EventOutbox) =>
  outbox.claimStale({ olderThan: new Date(at(400)), now: new Date(at(500)), limit: 100 });

export function eventOutboxContract(name: string, open: () => Promise<OpenedEventOutbox>): void {
  describe(`EventOutbox contract: ${name}`, () => {
    let outbox: EventOutbox;
    let messages: MessageStore;
    let sessions: SessionStore;
    let close: () => Promise<void>;
    let sessionId: string;

    beforeEach(async () => {
      const opened = await open();
      ({ outbox, messages, sessions, close } = opened);
      const session = aSession();
      await opened.sessions.create(session);
      sessionId = session.id;
    });
    afterEach(async () => {
      await close();
    });

    it('stores an entry with its inserted message, the event read back intact', async () => {
      const message = aMessage({ sessionId, waMessageId: 'WA1', direction: 'incoming', createdAt: at(1) });
      let built: OutboxEntry | undefined;
      const inserted = await messages.insert(message, (stored) => {
        built = entryOf(receivedEvent(stored), at(1));
        return built;
      });
      expect(inserted).toBe(true);
      expect(await outbox.count()).toBe(1);
      expect(await claimAll(outbox)).toEqual([built]);
    });

    it('stores no entry when the message is a duplicate network id', async () => {
      const first = aMessage({ sessionId, waMessageId: 'WA1', createdAt: at(1) });
      await messages.insert(first, (stored) => entryOf(receivedEvent(stored), at(1)));
      const again = aMessage({ sessionId, waMessageId: 'WA1', createdAt: at(2) });
      expect(await messages.insert(again, (stored) => entryOf(receivedEvent(stored), at(2)))).toBe(false);
      expect(await outbox.count()).toBe(1);
    });

    it('writes neither the message nor the entry when the entry id is taken', async () => {
      const taken = entryOf(statusEvent(sessionId, at(1)), at(1));
      await outbox.append([taken]);
      const message = aMessage({ sessionId, waMessageId: 'WA2', createdAt: at(2) });
      await expect(messages.insert(message, () => ({ ...taken, createdAt: at(2) }))).rejects.toBeInstanceOf(
        ConflictError,
      );
      expect(await messages.findByWaMessageId(sessionId, 'WA2')).toBeNull();
      expect(await outbox.count()).toBe(1);
    });

    it('stores the entry a status change builds, and none for a change that builds none', async () => {
      const message = aMessage({ sessionId, waMessageId: 'WA3', direction: 'outgoing', status: 'sent' });
      await messages.insert(message);
      const seen: string[] = [];
      const change = await messages.advanceStatus(sessionId, 'WA3', 'delivered', undefined, (c) => {
        seen.push(`${c.outcome}:${c.message.status}`);
        return entryOf(statusEvent(sessionId, at(3)), at(3));
      });
      expect(change.outcome).toBe('updated');
      await messages.advanceStatus(sessionId, 'WA3', 'sent', undefined, (c) => {
        seen.push(`${c.outcome}:${c.message.status}`);
        return null;
      });
      expect(seen).toEqual(['updated:delivered', 'unchanged:delivered']);
      expect(await outbox.count()).toBe(1);
    });

    it('builds no entry for an unknown message', async () => {
      let called = false;
      const change = await messages.advanceStatus(sessionId, 'missing', 'read', undefined, () => {
        called = true;
        return entryOf(statusEvent(sessionId, at(1)), at(1));
      });
      expect(change).toEqual({ outcome: 'not_found' });
      expect(called).toBe(false);
      expect(await outbox.count()).toBe(0);
    });

    it('stores the entries of a session write with its row, and none when a condition fails', async () => {
      const entries = [1, 2].map((n) => entryOf(statusEvent(sessionId, at(n)), at(n)));
      const written = await sessions.update(
        sessionId,
        { status: 'ready', updatedAt: at(2) },
        { expectStatus: ['created'], outbox: entries },
      );
      expect(written.outcome).toBe('updated');
      expect(await claimAll(outbox)).toEqual(entries);

      const refused = await sessions.update(
        sessionId,
        { status: 'failed' },
        { expectStatus: ['created'], outbox: [entryOf(statusEvent(sessionId, at(3)), at(3))] },
      );
      expect(refused.outcome).toBe('conflict');
      expect(await outbox.count()).toBe(2);
      const missing = await sessions.update(
        'no-such-session',
        { status: 'failed' },
        { outbox: [entryOf(statusEvent(sessionId, at(4)), at(4))] },
      );
      expect(missing.outcome).toBe('not_found');
      expect(await outbox.count()).toBe(2);
    });

    it('writes neither the session row nor its entries when an entry id is taken', async () => {
      const taken = entryOf(statusEvent(sessionId, at(1)), at(1));
      await outbox.append([taken]);
      const fresh = entryOf(statusEvent(sessionId, at(2)), at(2));
      await expect(
        sessions.update(sessionId, { status: 'ready', updatedAt: at(2) }, { outbox: [fresh, { ...taken }] }),
      ).rejects.toBeInstanceOf(ConflictError);
      expect((await sessions.findById(sessionId))?.status).toBe('created');
      expect(await outbox.count()).toBe(1);
    });

    it('appends entries of their own and refuses a taken id', async () => {
      const entries = [1, 2, 3].map((n) => entryOf(statusEvent(sessionId, at(n)), at(n)));
      await outbox.append(entries);
      expect(await outbox.count()).toBe(3);
      await expect(outbox.append([entries[0] as OutboxEntry])).rejects.toBeInstanceOf(ConflictError);
      expect(await outbox.count()).toBe(3);
    });

    it('claims entries due before the cut-off, oldest first, up to the limit, once per period', async () => {
      const entries = [3, 1, 2, 9].map((n) => entryOf(statusEvent(sessionId, at(n)), at(n)));
      await outbox.append(entries);
      const first = await outbox.claimStale({ olderThan: new Date(at(5)), now: new Date(at(10)), limit: 2 });
      expect(first.map((e) => e.createdAt)).toEqual([at(1), at(2)]);
      const second = await outbox.claimStale({
        olderThan: new Date(at(5)),
        now: new Date(at(10)),
        limit: 10,
      });
      expect(second.map((e) => e.createdAt)).toEqual([at(3)]);
      // The claimed ones are due again from at(10), the unclaimed at(9) entry from its creation.
      expect(
        await outbox.claimStale({ olderThan: new Date(at(9)), now: new Date(at(11)), limit: 10 }),
      ).toEqual([]);
      const later = await outbox.claimStale({
        olderThan: new Date(at(11)),
        now: new Date(at(12)),
        limit: 10,
      });
      expect(later.map((e) => e.createdAt).sort()).toEqual([at(1), at(2), at(3), at(9)]);
    });

    it('removes completed entries and ignores unknown or repeated ids', async () => {
      const entries = [1, 2].map((n) => entryOf(statusEvent(sessionId, at(n)), at(n)));
      await outbox.append(entries);
      const [one, two] = entries as [OutboxEntry, OutboxEntry];
      await outbox.complete([one.id, one.id, randomUUID()]);
      expect(await outbox.count()).toBe(1);
      expect((await claimAll(outbox)).map((e) => e.id)).toEqual([two.id]);
      await outbox.complete([two.id]);
      expect(await outbox.count()).toBe(0);
    });

    /** Every entry, following the scan's pages of `limit`. */
    async function scanAll(limit: number): Promise<StoredOutboxEntry[]> {
      const all: StoredOutboxEntry[] = [];
      let after: string | null = null;
      do {
        const page = await outbox.scan(after, limit);
        expect(page.entries.length).toBeLessThanOrEqual(limit);
        all.push(...page.entries);
        after = page.next;
      } while (after !== null);
      return all;
    }
    const byId = (a: StoredOutboxEntry, b: StoredOutboxEntry) => a.id.localeCompare(b.id);

    it('scans every entry with its claim state, page by page; a restore writes them back exactly', async () => {
      const entries = [1, 2, 3, 4, 5].map((n) => entryOf(statusEvent(sessionId, at(n)), at(n)));
      await outbox.append(entries);
      await outbox.claimStale({ olderThan: new Date(at(3)), now: new Date(at(10)), limit: 10 });
      const stored = (await scanAll(2)).sort(byId);
      const expected = entries.map((entry, i) => ({ ...entry, claimedAt: i < 2 ? at(10) : null })).sort(byId);
      expect(stored).toEqual(expected);
      await outbox.complete(entries.map((entry) => entry.id));
      expect(await scanAll(2)).toEqual([]);
      await outbox.restore(stored);
      await outbox.restore(stored.slice(0, 1));
      expect((await scanAll(10)).sort(byId)).toEqual(expected);
      expect(await outbox.count()).toBe(5);
      // The unclaimed entries are due from their creation, the claimed ones from their claim.
      const due = await outbox.claimStale({ olderThan: new Date(at(9)), now: new Date(at(20)), limit: 10 });
      expect(due.map((entry) => entry.createdAt).sort()).toEqual([at(3), at(4), at(5)]);
    });
  });
}
