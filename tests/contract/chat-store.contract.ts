/**
 * Behaviour every ChatStore adapter must show: a first change creates the chat with the defaults, later changes
 * follow applyChatChange's rules (name kept, last message and activity only forward, unread counts, settings set and
 * cleared, a clear), the changes of one call in order, the list order (most recent first, chats without a timestamp
 * last, id as tiebreak) and its pages, deletes, sessions kept apart, concurrent changes of one chat none lost, and
 * where the store knows sessions an unknown one refused. The rules themselves are unit-tested in
 * tests/unit/domain/chat.test.ts; this holds each adapter to storing and reading back what they produce.
 */
import { type ChatLastMessage, MUTED_FOREVER, newChat } from '#shared/domain/chat.js';
import type { ChatStore } from '#shared/ports/chat-store.port.js';
import { type OpenedWithSessions, withTwoSessions } from './two-sessions.js';

/** The store under test plus the session store of the same data store, because chats belong to sessions. */
export type OpenedChatStore = OpenedWithSessions<ChatStore>;

/** What the adapter under test can be held to beyond the common contract. */
export interface ChatStoreContractOptions {
  /** The store refuses chats of sessions its data store does not hold (SQLite, DynamoDB; not the memory fake). */
  knowsSessions: boolean;
}

const A = '15550001111@c.us';
const B = '15550002222@c.us';
const GROUP = '120363000000000001@g.us';
const UNKNOWN_SESSION = '00000000-0000-4000-8000-000000000000';

const message = (
  id: string,
  timestamp: number,
  overrides: Partial<ChatLastMessage> = {},
): ChatLastMessage => ({
  id,
  fromMe: false,
  author: null,
  type: 'text',
  body: `text of ${id}`,
  timestamp,
  ...overrides,
});

/** Registers the ChatStore contract for the adapter `open` opens, named `name` in the test titles. */
export function chatStoreContract(
  name: string,
  open: () => Promise<OpenedChatStore>,
  options: ChatStoreContractOptions,
): void {
  describe(`ChatStore contract: ${name}`, () => {
    const t = withTwoSessions(open);

    it('creates a chat on its first change with the defaults, and knows no chat never changed', async () => {
      expect(await t.store.findById(t.s1, A)).toBeNull();
      await t.store.apply(t.s1, [{ id: A }]);
      expect(await t.store.findById(t.s1, A)).toEqual(newChat(A));
      const last = message('M1', 100, { author: '15550003333@c.us', body: null, type: 'image' });
      await t.store.apply(t.s1, [
        { id: GROUP, name: 'Ünïcode group ✓', lastMessage: last, unread: { add: 1 } },
      ]);
      expect(await t.store.findById(t.s1, GROUP)).toEqual({
        ...newChat(GROUP),
        name: 'Ünïcode group ✓',
        unreadCount: 1,
        timestamp: 100,
        lastMessage: last,
      });
      expect(await t.store.findById(t.s1, B)).toBeNull();
    });

    it('keeps a known name when a later change has none', async () => {
      await t.store.apply(t.s1, [{ id: A, name: 'Alice' }]);
      await t.store.apply(t.s1, [
        { id: A, name: null },
        { id: A, archived: true },
      ]);
      expect(await t.store.findById(t.s1, A)).toMatchObject({ name: 'Alice', archived: true });
      await t.store.apply(t.s1, [{ id: A, name: 'Alice B.' }]);
      expect((await t.store.findById(t.s1, A))?.name).toBe('Alice B.');
    });

    it('replaces the last message only with a newer one or the same message, and moves activity forward only', async () => {
      await t.store.apply(t.s1, [{ id: A, lastMessage: message('M2', 200) }]);
      await t.store.apply(t.s1, [{ id: A, lastMessage: message('M1', 100) }]);
      expect(await t.store.findById(t.s1, A)).toMatchObject({
        lastMessage: message('M2', 200),
        timestamp: 200,
      });
      // The same message again (edited) replaces it whatever its timestamp says.
      const edited = message('M2', 150, { body: 'edited' });
      await t.store.apply(t.s1, [{ id: A, lastMessage: edited }]);
      expect(await t.store.findById(t.s1, A)).toMatchObject({ lastMessage: edited, timestamp: 200 });
      await t.store.apply(t.s1, [{ id: A, timestamp: 150 }]);
      expect((await t.store.findById(t.s1, A))?.timestamp).toBe(200);
      await t.store.apply(t.s1, [{ id: A, timestamp: 300 }]);
      expect((await t.store.findById(t.s1, A))?.timestamp).toBe(300);
      await t.store.apply(t.s1, [{ id: A, lastMessage: message('M3', 400) }]);
      expect(await t.store.findById(t.s1, A)).toMatchObject({
        lastMessage: message('M3', 400),
        timestamp: 400,
      });
    });

    it('sets and adds to the unread count, never below 0, and a set to 0 clears a hand-made mark', async () => {
      await t.store.apply(t.s1, [{ id: A, unread: { set: 3 } }]);
      await t.store.apply(t.s1, [{ id: A, unread: { add: 2 } }]);
      expect((await t.store.findById(t.s1, A))?.unreadCount).toBe(5);
      await t.store.apply(t.s1, [{ id: A, unread: { add: -9 } }]);
      expect((await t.store.findById(t.s1, A))?.unreadCount).toBe(0);
      await t.store.apply(t.s1, [{ id: A, markedUnread: true }]);
      await t.store.apply(t.s1, [{ id: A, unread: { set: 2 } }]);
      expect(await t.store.findById(t.s1, A)).toMatchObject({ unreadCount: 2, markedUnread: true });
      await t.store.apply(t.s1, [{ id: A, unread: { set: 0 } }]);
      expect(await t.store.findById(t.s1, A)).toMatchObject({ unreadCount: 0, markedUnread: false });
    });

    it('sets and clears the mark, archive, pin and mute', async () => {
      const settings = {
        markedUnread: true,
        archived: true,
        pinnedAt: 1_700_000_000,
        muteUntil: MUTED_FOREVER,
      };
      await t.store.apply(t.s1, [{ id: A, ...settings }]);
      expect(await t.store.findById(t.s1, A)).toEqual({ ...newChat(A), ...settings });
      await t.store.apply(t.s1, [{ id: A, muteUntil: 1_800_000_000_000 }]);
      expect((await t.store.findById(t.s1, A))?.muteUntil).toBe(1_800_000_000_000);
      await t.store.apply(t.s1, [
        { id: A, markedUnread: false, archived: false, pinnedAt: null, muteUntil: null },
      ]);
      expect(await t.store.findById(t.s1, A)).toEqual(newChat(A));
    });

    it('drops the last message and the unread state on a clear, keeping settings and activity', async () => {
      await t.store.apply(t.s1, [
        { id: A, name: 'Alice', lastMessage: message('M1', 100), unread: { set: 4 }, archived: true },
        { id: A, markedUnread: true, pinnedAt: 50 },
      ]);
      await t.store.apply(t.s1, [{ id: A, cleared: true }]);
      expect(await t.store.findById(t.s1, A)).toEqual({
        ...newChat(A),
        name: 'Alice',
        timestamp: 100,
        archived: true,
        pinnedAt: 50,
      });
      // A message after the clear, in the same change, is the chat's last one (even if older than the cleared one).
      await t.store.apply(t.s1, [{ id: A, lastMessage: message('M2', 200) }]);
      await t.store.apply(t.s1, [
        { id: A, cleared: true, lastMessage: message('M0', 90), unread: { add: 1 } },
      ]);
      expect(await t.store.findById(t.s1, A)).toMatchObject({
        lastMessage: message('M0', 90),
        unreadCount: 1,
        timestamp: 200,
      });
    });

    it('applies the changes of one call in order, across chats', async () => {
      await t.store.apply(t.s1, [
        { id: A, unread: { set: 3 } },
        { id: B, name: 'Bob', lastMessage: message('B1', 10) },
        { id: A, unread: { add: 2 } },
        { id: A, cleared: true },
        { id: A, unread: { add: 1 }, archived: true },
        { id: B, lastMessage: message('B2', 20) },
      ]);
      expect(await t.store.findById(t.s1, A)).toEqual({ ...newChat(A), unreadCount: 1, archived: true });
      expect(await t.store.findById(t.s1, B)).toMatchObject({ name: 'Bob', lastMessage: message('B2', 20) });
      await t.store.apply(t.s1, []);
      expect(await t.store.list(t.s1, { limit: 10, offset: 0 })).toHaveLength(2);
    });

    it('lists most recent first, chats without a timestamp last, the id breaking ties, in pages without gaps', async () => {
      const stamps: [string, number | null][] = [
        ['c@c.us', 100],
        ['a@g.us', null],
        ['b@c.us', 300],
        ['e@c.us', 100],
        ['B@c.us', 100],
        ['d@c.us', 5_000_000_000],
        ['0@c.us', null],
        ['f@c.us', 0],
      ];
      await t.store.apply(
        t.s1,
        stamps.map(([id, timestamp]) => (timestamp === null ? { id, archived: true } : { id, timestamp })),
      );
      await t.store.apply(t.s2, [{ id: 'z@c.us', timestamp: 200 }]);
      const order = ['d@c.us', 'b@c.us', 'B@c.us', 'c@c.us', 'e@c.us', 'f@c.us', '0@c.us', 'a@g.us'];
      const ids = async (limit: number, offset: number) =>
        (await t.store.list(t.s1, { limit, offset })).map((chat) => chat.id);
      expect(await ids(100, 0)).toEqual(order);
      const pages = [await ids(3, 0), await ids(3, 3), await ids(3, 6)];
      expect(pages.map((page) => page.length)).toEqual([3, 3, 2]);
      expect(pages.flat()).toEqual(order);
      expect(await ids(3, 8)).toEqual([]);
      expect(await ids(2, 5)).toEqual(['f@c.us', '0@c.us']);
      // A chat whose activity moves forward moves to the front.
      await t.store.apply(t.s1, [{ id: 'a@g.us', lastMessage: message('M1', 6_000_000_000) }]);
      expect(await ids(2, 0)).toEqual(['a@g.us', 'd@c.us']);
      expect((await t.store.list(t.s1, { limit: 1, offset: 0 }))[0]).toMatchObject({ archived: true });
    });

    it('deletes one chat, answering whether it was stored', async () => {
      await t.store.apply(t.s1, [{ id: A }, { id: B }]);
      await t.store.apply(t.s2, [{ id: A }]);
      expect(await t.store.delete(t.s1, A)).toBe(true);
      expect(await t.store.delete(t.s1, A)).toBe(false);
      expect(await t.store.delete(t.s1, GROUP)).toBe(false);
      expect(await t.store.findById(t.s1, A)).toBeNull();
      expect(await t.store.findById(t.s1, B)).not.toBeNull();
      expect(await t.store.findById(t.s2, A)).not.toBeNull();
      // A chat deleted and reported again starts over.
      await t.store.apply(t.s1, [{ id: A, unread: { add: 1 } }]);
      expect(await t.store.findById(t.s1, A)).toEqual({ ...newChat(A), unreadCount: 1 });
    });

    it('deletes every chat of a session, counting them, and leaves other sessions’ alone', async () => {
      await t.store.apply(t.s1, [{ id: A }, { id: B, timestamp: 1 }, { id: GROUP }]);
      await t.store.apply(t.s2, [{ id: A, name: 'Alice' }]);
      expect(await t.store.deleteBySession(t.s1)).toBe(3);
      expect(await t.store.deleteBySession(t.s1)).toBe(0);
      expect(await t.store.list(t.s1, { limit: 10, offset: 0 })).toEqual([]);
      expect(await t.store.list(t.s2, { limit: 10, offset: 0 })).toEqual([{ ...newChat(A), name: 'Alice' }]);
    });

    it('keeps sessions apart', async () => {
      await t.store.apply(t.s1, [{ id: A, name: 'Alice', unread: { set: 2 } }]);
      await t.store.apply(t.s2, [{ id: A, archived: true }]);
      expect(await t.store.findById(t.s1, A)).toEqual({ ...newChat(A), name: 'Alice', unreadCount: 2 });
      expect(await t.store.findById(t.s2, A)).toEqual({ ...newChat(A), archived: true });
      expect(await t.store.findById(t.s2, B)).toBeNull();
    });

    it('counts every one of concurrent changes of one chat', async () => {
      await Promise.all([1, 2, 3, 4].map(() => t.store.apply(t.s1, [{ id: A, unread: { add: 1 } }])));
      expect((await t.store.findById(t.s1, A))?.unreadCount).toBe(4);
    });

    // The memory fake keeps no link to the session store (like the other memory stores), so it has no unknown
    // session to refuse; the registration below is the contract for the stores that do.
    if (options.knowsSessions) {
      it('refuses the changes of an unknown session with NotFoundError, writing nothing', async () => {
        await expect(t.store.apply(UNKNOWN_SESSION, [{ id: A }, { id: B }])).rejects.toMatchObject({
          status: 404,
          code: 'NOT_FOUND',
        });
        expect(await t.store.list(UNKNOWN_SESSION, { limit: 10, offset: 0 })).toEqual([]);
      });
    }
  });
}
