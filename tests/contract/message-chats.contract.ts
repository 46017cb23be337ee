/**
 * MessageStore's per-chat methods, which every adapter must answer alike. hasChat: any stored message of the chat in
 * the session, in either direction, and nothing of another chat or another session. deleteByChat: the chat's rows of
 * that session and whatever belongs to them (network-id uniqueness, search index), nothing of another chat or
 * session, answering the media paths of the rows it removed.
 */
import { parseSearchQuery } from '#shared/domain/message-search.js';
import type { MessageStore } from '#shared/ports/message-store.port.js';
import type { SessionStore } from '#shared/ports/session-store.port.js';
import { aMessage, aSession } from '#tests/helpers/builders.js';

export interface OpenedMessageChats {
  messages: MessageStore;
  sessions: SessionStore;
  close(): Promise<void>;
}

const WROTE_FIRST = '4915111111111@c.us';
const ANSWERED = '4915122222222@c.us';
const GROUP = '120363000000000001@g.us';
const STRANGER = '4915133333333@c.us';

export function messageChatsContract(name: string, open: () => Promise<OpenedMessageChats>): void {
  describe(`MessageStore chats contract: ${name}`, () => {
    it('knows a chat by any message of it, incoming or outgoing, per session', async () => {
      const { messages, sessions, close } = await open();
      try {
        const [session, other] = [aSession(), aSession()];
        for (const s of [session, other]) await sessions.create(s);
        await messages.insert(
          aMessage({ sessionId: session.id, chatId: WROTE_FIRST, direction: 'incoming' }),
        );
        await messages.insert(aMessage({ sessionId: session.id, chatId: ANSWERED, direction: 'outgoing' }));
        await messages.insert(aMessage({ sessionId: session.id, chatId: GROUP, direction: 'incoming' }));
        await messages.insert(aMessage({ sessionId: other.id, chatId: STRANGER }));

        expect(await messages.hasChat(session.id, WROTE_FIRST)).toBe(true);
        expect(await messages.hasChat(session.id, ANSWERED)).toBe(true);
        expect(await messages.hasChat(session.id, GROUP)).toBe(true);
        expect(await messages.hasChat(session.id, STRANGER)).toBe(false);
        expect(await messages.hasChat(other.id, WROTE_FIRST)).toBe(false);
        expect(await messages.hasChat(other.id, STRANGER)).toBe(true);
      } finally {
        await close();
      }
    });

    describe('deleteByChat', () => {
      const ALL = { limit: 1000, offset: 0 };
      let opened: OpenedMessageChats;
      let messages: MessageStore;
      let s1: string;
      let s2: string;

      beforeEach(async () => {
        opened = await open();
        messages = opened.messages;
        const sessions = [aSession(), aSession()];
        for (const session of sessions) await opened.sessions.create(session);
        [s1, s2] = sessions.map((session) => session.id) as [string, string];
      });
      afterEach(async () => {
        await opened.close();
      });

      const listed = async (sessionId: string, chatId?: string) =>
        (await messages.list({ sessionId, ...(chatId === undefined ? {} : { chatId }) }, ALL)).messages.map(
          (message) => message.id,
        );
      const found = async (sessionId: string, query: string, chatId?: string) =>
        (
          await messages.search(
            {
              sessionId,
              ...(chatId === undefined ? {} : { chatId }),
              terms: parseSearchQuery(query),
              maxMatches: 100,
            },
            ALL,
          )
        ).messages.map((message) => message.id);

      it("deletes only that chat's messages of that session and answers the media paths of the deleted rows", async () => {
        const doomed = [
          aMessage({ sessionId: s1, chatId: WROTE_FIRST, waMessageId: 'WA1', body: 'parcel at noon' }),
          aMessage({
            sessionId: s1,
            chatId: WROTE_FIRST,
            waMessageId: 'WA2',
            body: null,
            type: 'image',
            mediaPath: `media/${s1}/a.jpg`,
            mediaMimetype: 'image/jpeg',
          }),
          aMessage({
            sessionId: s1,
            chatId: WROTE_FIRST,
            waMessageId: null,
            body: 'parcel receipt',
            type: 'document',
            mediaPath: `media/${s1}/b.pdf`,
            mediaMimetype: 'application/pdf',
          }),
        ];
        const otherChat = aMessage({
          sessionId: s1,
          chatId: ANSWERED,
          body: 'parcel too',
          mediaPath: 'media/c.jpg',
        });
        const otherSession = aMessage({
          sessionId: s2,
          chatId: WROTE_FIRST,
          waMessageId: 'WA1',
          body: 'parcel',
        });
        for (const message of [...doomed, otherChat, otherSession])
          expect(await messages.insert(message)).toBe(true);

        const paths = await messages.deleteByChat(s1, WROTE_FIRST);
        expect([...paths].sort()).toEqual([`media/${s1}/a.jpg`, `media/${s1}/b.pdf`]);

        expect(await listed(s1)).toEqual([otherChat.id]);
        expect(await listed(s1, WROTE_FIRST)).toEqual([]);
        expect(await listed(s2)).toEqual([otherSession.id]);
        expect(await messages.hasChat(s1, WROTE_FIRST)).toBe(false);
        expect(await messages.hasChat(s2, WROTE_FIRST)).toBe(true);
        for (const message of doomed) expect(await messages.findById(s1, message.id)).toBeNull();
        expect(await messages.findByWaMessageId(s1, 'WA1')).toBeNull();
        expect(await messages.findByWaMessageId(s2, 'WA1')).toEqual(otherSession);
        expect(await found(s1, 'parcel')).toEqual([otherChat.id]);
        expect(await found(s1, 'parcel', WROTE_FIRST)).toEqual([]);
        expect(await found(s2, 'parcel', WROTE_FIRST)).toEqual([otherSession.id]);
        expect(await messages.deleteByChat(s1, WROTE_FIRST)).toEqual([]);
      });

      it('frees the network ids of the deleted messages for a later insert', async () => {
        const first = aMessage({ sessionId: s1, chatId: WROTE_FIRST, waMessageId: 'WA1', body: 'first' });
        await messages.insert(first);
        await messages.deleteByChat(s1, WROTE_FIRST);
        const again = aMessage({ sessionId: s1, chatId: WROTE_FIRST, waMessageId: 'WA1', body: 'again' });
        expect(await messages.insert(again)).toBe(true);
        expect(await messages.findByWaMessageId(s1, 'WA1')).toEqual(again);
        expect(await listed(s1, WROTE_FIRST)).toEqual([again.id]);
        expect(await found(s1, 'again')).toEqual([again.id]);
        expect(await found(s1, 'first')).toEqual([]);
      });

      it('deletes a chat longer than one write batch', async () => {
        for (let i = 0; i < 30; i++) {
          await messages.insert(
            aMessage({ sessionId: s1, chatId: GROUP, mediaPath: i % 2 === 0 ? `media/${i}.jpg` : null }),
          );
        }
        expect(await messages.deleteByChat(s1, GROUP)).toHaveLength(15);
        expect(await messages.list({ sessionId: s1 }, ALL)).toEqual({ messages: [], total: 0 });
      });

      it('answers [] for an unknown chat or session and deletes nothing', async () => {
        const kept = aMessage({ sessionId: s1, chatId: WROTE_FIRST, mediaPath: 'media/kept.jpg' });
        await messages.insert(kept);
        expect(await messages.deleteByChat(s1, STRANGER)).toEqual([]);
        expect(await messages.deleteByChat(s2, WROTE_FIRST)).toEqual([]);
        expect(await messages.deleteByChat('00000000-0000-4000-8000-000000000000', WROTE_FIRST)).toEqual([]);
        expect(await listed(s1)).toEqual([kept.id]);
      });
    });
  });
}
