/**
 * MessageStore.hasChat, which every adapter must answer alike: any stored message of the chat in the session, in
 * either direction, and nothing of another chat or another session.
 */
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
  });
}
