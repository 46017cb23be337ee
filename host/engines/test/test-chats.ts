/**
 * The chats of the test network's accounts, as each account's phone sees them, and the test engine's chats port
 * over them. A chat exists on an account once a message of it went either way (sent by the session or delivered
 * to it); acting on another is declined, as the browser-free engine declines a chat with no known message. What
 * the port changes reaches the session back as `chatsChanged` (as a real client hears its own app-state patches),
 * and a test acts as the phone with `phoneChanges`.
 */
import type { ChatChange } from '#shared/domain/chat.js';
import { MUTED_FOREVER } from '#shared/domain/chat.js';
import type { PortOperations } from '#shared/domain/engine-operations/engine-operations.js';
import type { EngineEmitter } from '../engine-events.js';

/** One chat as the account's phone shows it. */
export interface PhoneChat {
  archived: boolean;
  pinned: boolean;
  /** Epoch ms, MUTED_FOREVER, or null. */
  muteUntil: number | null;
  markedUnread: boolean;
  /** Network ids of the received messages marked read by id. */
  readIds: string[];
  /** What the chat's other side sees the account doing. */
  typing: 'typing' | 'recording' | 'paused' | null;
  /** How many times its messages were cleared. */
  clears: number;
}

const newPhoneChat = (): PhoneChat => ({
  archived: false,
  pinned: false,
  muteUntil: null,
  markedUnread: false,
  readIds: [],
  typing: null,
  clears: 0,
});

export class TestAccountChats {
  private readonly accounts = new Map<string, Map<string, PhoneChat>>();

  /** A message of `chatId` went to or from the session's account: the chat exists there. */
  know(sessionId: string, chatId: string): void {
    const chats = this.chatsOf(sessionId);
    if (!chats.has(chatId)) chats.set(chatId, newPhoneChat());
  }

  /** The chat as the account's phone shows it; undefined when the account has no such chat. */
  of(sessionId: string, chatId: string): PhoneChat | undefined {
    return this.accounts.get(sessionId)?.get(chatId);
  }

  /** Forgets a chat (deleted on the account). */
  forget(sessionId: string, chatId: string): void {
    this.accounts.get(sessionId)?.delete(chatId);
  }

  private chatsOf(sessionId: string): Map<string, PhoneChat> {
    let chats = this.accounts.get(sessionId);
    if (!chats) {
      chats = new Map();
      this.accounts.set(sessionId, chats);
    }
    return chats;
  }
}

/** The chat change that tells the session what the phone's chat now is (what a synced app-state patch says). */
export function changeOf(chatId: string, chat: PhoneChat, nowMs: number): ChatChange {
  return {
    id: chatId,
    archived: chat.archived,
    pinnedAt: chat.pinned ? Math.floor(nowMs / 1000) : null,
    muteUntil: chat.muteUntil,
    ...(chat.markedUnread ? { markedUnread: true } : { unread: { set: 0 } }),
  };
}

/** The test engine's chats port for one session: acts on the account's chats while `open()`. */
export function testChats(
  chats: TestAccountChats,
  sessionId: string,
  emit: EngineEmitter['emit'],
  open: () => boolean,
): PortOperations<'chats'> {
  /** Changes a chat the account has by `patch` and reports it; false (declined) for one it has not. */
  const act = async (chatId: string, patch: (chat: PhoneChat) => Partial<PhoneChat>, report = true) => {
    if (!open()) throw new Error('connection closed');
    const chat = chats.of(sessionId, chatId);
    if (!chat) return { success: false };
    Object.assign(chat, patch(chat));
    if (report) emit('chatsChanged', { changes: [changeOf(chatId, chat, Date.now())] });
    return { success: true };
  };
  return {
    markRead: ({ chatId, messageIds }) =>
      act(chatId, (chat) =>
        messageIds ? { readIds: [...chat.readIds, ...messageIds] } : { markedUnread: false },
      ),
    markUnread: ({ chatId }) => act(chatId, () => ({ markedUnread: true })),
    archive: ({ chatId, archive }) => act(chatId, () => ({ archived: archive })),
    pin: ({ chatId, pin }) => act(chatId, () => ({ pinned: pin })),
    mute: async ({ chatId, muteUntil }) => {
      await act(chatId, () => ({ muteUntil: muteUntil === 0 ? MUTED_FOREVER : muteUntil }));
      // Muting cannot be declined (a chat the account lacks stays as it is).
      return { success: true as const };
    },
    delete: async ({ chatId }) => {
      const done = await act(chatId, () => ({}), false);
      if (done.success) {
        chats.forget(sessionId, chatId);
        emit('chatsDeleted', { chatIds: [chatId] });
      }
      return done;
    },
    clear: async ({ chatId }) => {
      const done = await act(chatId, (chat) => ({ clears: chat.clears + 1 }), false);
      if (done.success) emit('chatCleared', { chatId });
      return done;
    },
    typing: async ({ chatId, state }) => {
      if (!open()) throw new Error('connection closed');
      chats.know(sessionId, chatId);
      const chat = chats.of(sessionId, chatId);
      if (chat) chat.typing = state;
      return { success: true as const };
    },
  };
}
