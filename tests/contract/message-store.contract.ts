/**
 * Behaviour every MessageStore adapter must show: network ids deduplicate inserts per session, history lists
 * newest first with filters and an unpaginated total, and acknowledgements only move a status forward.
 */
import type { Message, MessageStatus } from '#shared/domain/message.js';
import { ConflictError } from '#shared/errors/app-error.js';
import type { MessageStore } from '#shared/ports/message-store.port.js';
import type { SessionStore } from '#shared/ports/session-store.port.js';
import { aMessage, aSession, at } from '#tests/helpers/builders.js';

/** The store under test plus the session store of the same data store, because messages belong to sessions. */
export interface OpenedMessageStore {
  store: MessageStore;
  sessions: SessionStore;
  close(): Promise<void>;
}

const ALL = { limit: 1000, offset: 0 };
const GROUP = '120363025246125486@g.us';
const ALICE = '4915111111111@c.us';
const BOB = '4915122222222@c.us';

export function messageStoreContract(name: string, open: () => Promise<OpenedMessageStore>): void {
  describe(`MessageStore contract: ${name}`, () => {
    let store: MessageStore;
    let close: () => Promise<void>;
    let s1: string;
    let s2: string;

    beforeEach(async () => {
      const opened = await open();
      ({ store, close } = opened);
      const sessions = [aSession(), aSession()];
      for (const session of sessions) await opened.sessions.create(session);
      [s1, s2] = sessions.map((session) => session.id) as [string, string];
    });
    afterEach(async () => {
      await close();
    });

    async function seed(...messages: Message[]): Promise<Message[]> {
      for (const message of messages) expect(await store.insert(message)).toBe(true);
      return messages;
    }
    const ids = (messages: Message[]): string[] => messages.map((message) => message.id);
    const listed = async (filter: { chatId?: string | string[]; from?: string | string[] }, sessionId = s1) =>
      ids((await store.list({ sessionId, ...filter }, ALL)).messages);

    describe('insert and find', () => {
      it('finds an inserted message by id and by network id with every field intact', async () => {
        const message = aMessage({
          sessionId: s1,
          chatId: GROUP,
          chatName: 'Team',
          author: ALICE,
          from: GROUP,
          to: '4915100000001@c.us',
          body: null,
          type: 'image',
          direction: 'incoming',
          timestamp: 1_735_689_600,
          metadata: { caption: 'hi', media: { size: 12, tags: ['a', 1, null] } },
          status: 'delivered',
          mediaPath: 'media/abc.jpg',
          mediaMimetype: 'image/jpeg',
        });
        expect(await store.insert(message)).toBe(true);
        expect(await store.findById(s1, message.id)).toEqual(message);
        expect(await store.findByWaMessageId(s1, message.waMessageId ?? '')).toEqual(message);
      });

      it('answers null for an unknown id or network id, and for a message of another session', async () => {
        const [message] = await seed(aMessage({ sessionId: s1 }));
        expect(await store.findById(s1, '00000000-0000-4000-8000-000000000000')).toBeNull();
        expect(await store.findByWaMessageId(s1, 'unknown')).toBeNull();
        expect(await store.findById(s2, message!.id)).toBeNull();
        expect(await store.findByWaMessageId(s2, message!.waMessageId!)).toBeNull();
      });

      it('ignores a second insert with the same network id, answering false and keeping the first', async () => {
        const [first] = await seed(aMessage({ sessionId: s1, waMessageId: 'WA1', body: 'first' }));
        const again = aMessage({ sessionId: s1, waMessageId: 'WA1', body: 'again' });
        expect(await store.insert(again)).toBe(false);
        expect(await store.insert(again)).toBe(false);
        expect(await store.findByWaMessageId(s1, 'WA1')).toEqual(first);
        expect(await store.findById(s1, again.id)).toBeNull();
        expect(await store.list({ sessionId: s1 }, ALL)).toEqual({ messages: [first], total: 1 });
      });

      it('accepts the same network id in another session', async () => {
        await seed(
          aMessage({ sessionId: s1, waMessageId: 'WA1' }),
          aMessage({ sessionId: s2, waMessageId: 'WA1' }),
        );
        expect((await store.findByWaMessageId(s2, 'WA1'))!.sessionId).toBe(s2);
      });

      it('never lets messages without a network id collide', async () => {
        const messages = await seed(
          aMessage({ sessionId: s1, waMessageId: null, createdAt: at(1) }),
          aMessage({ sessionId: s1, waMessageId: null, createdAt: at(2) }),
        );
        expect((await store.list({ sessionId: s1 }, ALL)).total).toBe(2);
        for (const message of messages) expect(await store.findById(s1, message.id)).toEqual(message);
      });

      it('rejects a taken id with ConflictError CONFLICT', async () => {
        const [first] = await seed(aMessage({ sessionId: s1 }));
        const clash = aMessage({ sessionId: s1, id: first!.id, body: 'clash' });
        await expect(store.insert(clash)).rejects.toBeInstanceOf(ConflictError);
        await expect(store.insert(clash)).rejects.toMatchObject({ code: 'CONFLICT', status: 409 });
        expect(await store.findById(s1, first!.id)).toEqual(first);
      });

      it('hands out copies: mutating an argument or a result does not change the store', async () => {
        const message = aMessage({ sessionId: s1, metadata: { caption: 'original' } });
        await store.insert(message);
        message.metadata!.caption = 'changed';
        message.body = 'changed';
        const found = await store.findById(s1, message.id);
        found!.metadata!.caption = 'changed';
        found!.status = 'read';
        expect(await store.findById(s1, message.id)).toMatchObject({
          body: 'hello',
          status: 'sent',
          metadata: { caption: 'original' },
        });
      });
    });

    describe('list', () => {
      it('lists newest first by timestamp, then createdAt, then id; messages without a timestamp last', async () => {
        const untimed = aMessage({ sessionId: s1, timestamp: null, createdAt: at(99) });
        const oldest = aMessage({ sessionId: s1, timestamp: 100, createdAt: at(50) });
        const tieOld = aMessage({ sessionId: s1, timestamp: 200, createdAt: at(1) });
        const tieA = aMessage({
          sessionId: s1,
          id: '10000000-0000-4000-8000-000000000000',
          timestamp: 200,
          createdAt: at(2),
        });
        const tieB = aMessage({
          sessionId: s1,
          id: '20000000-0000-4000-8000-000000000000',
          timestamp: 200,
          createdAt: at(2),
        });
        const newest = aMessage({ sessionId: s1, timestamp: 300, createdAt: at(0) });
        await seed(tieA, untimed, newest, oldest, tieB, tieOld);
        expect(await listed({})).toEqual([newest.id, tieB.id, tieA.id, tieOld.id, oldest.id, untimed.id]);
      });

      it('filters by chatId', async () => {
        const [inChat] = await seed(
          aMessage({ sessionId: s1, chatId: ALICE, timestamp: 1 }),
          aMessage({ sessionId: s1, chatId: BOB, timestamp: 2 }),
        );
        expect(await listed({ chatId: ALICE })).toEqual([inChat!.id]);
        expect(await listed({ chatId: '4915199999999@c.us' })).toEqual([]);
      });

      it('matches any of several ids (a phone and its LID aliases), as sender and as chat, and combines both', async () => {
        const LID = '123456789012345@lid';
        const [direct, byLid, inGroupByLid] = await seed(
          aMessage({ sessionId: s1, chatId: ALICE, from: ALICE, timestamp: 1 }),
          aMessage({ sessionId: s1, chatId: LID, from: LID, timestamp: 2 }),
          aMessage({ sessionId: s1, chatId: GROUP, from: GROUP, author: LID, timestamp: 3 }),
          aMessage({ sessionId: s1, chatId: BOB, from: BOB, timestamp: 4 }),
        );
        expect(await listed({ from: [ALICE, LID] })).toEqual([inGroupByLid!.id, byLid!.id, direct!.id]);
        // In a group message `from` is the group and `author` the sender: both match.
        expect(await listed({ from: LID })).toEqual([inGroupByLid!.id, byLid!.id]);
        expect(await listed({ from: GROUP })).toEqual([inGroupByLid!.id]);
        expect(await listed({ chatId: [ALICE, LID] })).toEqual([byLid!.id, direct!.id]);
        expect(await listed({ chatId: [ALICE, LID], from: [LID] })).toEqual([byLid!.id]);
        expect(await listed({ chatId: GROUP, from: LID })).toEqual([inGroupByLid!.id]);
        expect(await listed({ chatId: BOB, from: ALICE })).toEqual([]);
      });

      it('pages with limit and offset and reports the unpaginated total', async () => {
        const messages = await seed(...[1, 2, 3, 4, 5].map((n) => aMessage({ sessionId: s1, timestamp: n })));
        const newestFirst = ids(messages).reverse();
        const page = async (limit: number, offset: number) => {
          const result = await store.list({ sessionId: s1 }, { limit, offset });
          return { ids: ids(result.messages), total: result.total };
        };
        expect(await page(2, 0)).toEqual({ ids: newestFirst.slice(0, 2), total: 5 });
        expect(await page(2, 3)).toEqual({ ids: newestFirst.slice(3, 5), total: 5 });
        expect(await page(2, 5)).toEqual({ ids: [], total: 5 });
      });

      it('counts only the filtered messages in the total', async () => {
        await seed(
          ...[1, 2, 3].map((n) => aMessage({ sessionId: s1, chatId: ALICE, timestamp: n })),
          aMessage({ sessionId: s1, chatId: BOB }),
        );
        const result = await store.list({ sessionId: s1, chatId: ALICE }, { limit: 1, offset: 0 });
        expect(result.messages).toHaveLength(1);
        expect(result.total).toBe(3);
      });

      it('keeps sessions apart', async () => {
        const [mine] = await seed(
          aMessage({ sessionId: s1, from: ALICE }),
          aMessage({ sessionId: s2, from: ALICE }),
        );
        expect(await listed({})).toEqual([mine!.id]);
        expect(await listed({ from: ALICE })).toEqual([mine!.id]);
        expect(await store.list({ sessionId: '00000000-0000-4000-8000-000000000000' }, ALL)).toEqual({
          messages: [],
          total: 0,
        });
      });
    });

    describe('advanceStatus', () => {
      async function seeded(status: MessageStatus): Promise<Message> {
        const [message] = await seed(aMessage({ sessionId: s1, waMessageId: 'WA1', status }));
        return message!;
      }
      const stored = async () => (await store.findByWaMessageId(s1, 'WA1'))!.status;

      it('moves forward sent → delivered → read and answers the updated message', async () => {
        const message = await seeded('sent');
        expect(await store.advanceStatus(s1, 'WA1', 'delivered')).toEqual({
          outcome: 'updated',
          message: { ...message, status: 'delivered' },
        });
        expect(await store.advanceStatus(s1, 'WA1', 'read')).toEqual({
          outcome: 'updated',
          message: { ...message, status: 'read' },
        });
        expect(await stored()).toBe('read');
      });

      it('skips steps: pending → read in one ack', async () => {
        await seeded('pending');
        expect(await store.advanceStatus(s1, 'WA1', 'read')).toMatchObject({ outcome: 'updated' });
        expect(await stored()).toBe('read');
      });

      it('leaves a later status alone: delivered after read is unchanged, with the current message', async () => {
        const message = await seeded('read');
        expect(await store.advanceStatus(s1, 'WA1', 'delivered')).toEqual({ outcome: 'unchanged', message });
        expect(await store.advanceStatus(s1, 'WA1', 'read')).toEqual({ outcome: 'unchanged', message });
        expect(await stored()).toBe('read');
      });

      it('fills a missing timestamp even when an ack overtook the status, and never replaces one', async () => {
        const [message] = await seed(
          aMessage({ sessionId: s1, waMessageId: 'WA1', status: 'pending', timestamp: null }),
        );
        expect(await store.advanceStatus(s1, 'WA1', 'delivered')).toEqual({
          outcome: 'updated',
          message: { ...message, status: 'delivered', timestamp: null },
        });
        expect(await store.advanceStatus(s1, 'WA1', 'sent', 1_700_000_000)).toEqual({
          outcome: 'unchanged',
          message: { ...message, status: 'delivered', timestamp: 1_700_000_000 },
        });
        expect(await store.advanceStatus(s1, 'WA1', 'sent', 1_800_000_000)).toMatchObject({
          outcome: 'unchanged',
          message: { timestamp: 1_700_000_000 },
        });
        expect(await store.findByWaMessageId(s1, 'WA1')).toMatchObject({
          status: 'delivered',
          timestamp: 1_700_000_000,
        });
        // The history order follows the filled timestamp (DynamoDB keeps it in its sort keys).
        const later = aMessage({ sessionId: s1, waMessageId: 'WA2', timestamp: 1_750_000_000 });
        await seed(later);
        const page = await store.list({ sessionId: s1 }, ALL);
        expect(page.messages.map((m) => m.waMessageId)).toEqual(['WA2', 'WA1']);
      });

      it('fails only a pending message, and never moves a failed one', async () => {
        await seeded('pending');
        expect(await store.advanceStatus(s1, 'WA1', 'failed')).toMatchObject({ outcome: 'updated' });
        expect(await store.advanceStatus(s1, 'WA1', 'sent')).toMatchObject({ outcome: 'unchanged' });
        expect(await stored()).toBe('failed');
        await seed(aMessage({ sessionId: s1, waMessageId: 'WA2', status: 'sent' }));
        expect(await store.advanceStatus(s1, 'WA2', 'failed')).toMatchObject({ outcome: 'unchanged' });
        expect((await store.findByWaMessageId(s1, 'WA2'))!.status).toBe('sent');
      });

      it('settles concurrent acks on the furthest status', async () => {
        await seeded('sent');
        await Promise.all([
          store.advanceStatus(s1, 'WA1', 'read'),
          store.advanceStatus(s1, 'WA1', 'delivered'),
        ]);
        expect(await stored()).toBe('read');
      });

      it('answers not_found for an unknown network id or one of another session', async () => {
        await seeded('sent');
        expect(await store.advanceStatus(s1, 'unknown', 'read')).toEqual({ outcome: 'not_found' });
        expect(await store.advanceStatus(s2, 'WA1', 'read')).toEqual({ outcome: 'not_found' });
        expect(await stored()).toBe('sent');
      });
    });

    describe('deleteBySession', () => {
      it("deletes only that session's messages and answers how many", async () => {
        const [, , other] = await seed(
          aMessage({ sessionId: s1 }),
          aMessage({ sessionId: s1, waMessageId: null }),
          aMessage({ sessionId: s2 }),
        );
        expect(await store.deleteBySession(s1)).toBe(2);
        expect(await store.list({ sessionId: s1 }, ALL)).toEqual({ messages: [], total: 0 });
        expect(await store.list({ sessionId: s2 }, ALL)).toEqual({ messages: [other], total: 1 });
        expect(await store.deleteBySession(s1)).toBe(0);
      });

      it('frees the network ids of the deleted messages', async () => {
        const [first] = await seed(aMessage({ sessionId: s1, waMessageId: 'WA1' }));
        await store.deleteBySession(s1);
        expect(await store.findByWaMessageId(s1, 'WA1')).toBeNull();
        expect(await store.insert(aMessage({ sessionId: s1, waMessageId: 'WA1' }))).toBe(true);
        expect(await store.findById(s1, first!.id)).toBeNull();
      });
    });
  });
}
