/**
 * The Baileys engine's chats port (rows of shared/domain/engine-operations/chats.ts): each operation is an app-state
 * patch the socket uploads for every device of the account (`chatModify`), or a chat state or read receipt sent to
 * the chat. WhatsApp ties archive, read state, delete and clear to the chat's last message (the patch's message
 * range), which Baileys 7 does not keep: it comes from the gateway's chat list (the chat's last message, else its
 * last activity time), and a chat the list does not hold is declined (`success: false`), as the spec says of this
 * engine. The socket is made without Baileys' own-event replay (baileys-connection.ts), so each change done is told
 * to the chat list here, as the other devices hear it from the patch.
 */
import type { ChatModification, LastMessageList, WAMessage, WASocket } from '@whiskeysockets/baileys';
import { type ChatChange, type ChatRecord, MUTED_FOREVER } from '#shared/domain/chat.js';
import type { PortOperations } from '#shared/domain/engine-operations/engine-operations.js';
import type { EngineEmitter } from '../engine-events.js';
import { toBaileysJid } from './baileys-jids.js';

type Chats = PortOperations<'chats'>;

/** The gateway's record of one of the session's chats (the chat store), null when it has none. */
export type ChatLookup = (chatId: string) => Promise<ChatRecord | null>;

const CHAT_STATES = { typing: 'composing', recording: 'recording', paused: 'paused' } as const;

/** The chat's last message as the patch's message range names it; null without one. */
function lastMessageOf(chat: ChatRecord): WAMessage | null {
  const last = chat.lastMessage;
  if (!last) return null;
  const remoteJid = toBaileysJid(chat.id);
  return {
    key: {
      remoteJid,
      id: last.id,
      fromMe: last.fromMe,
      ...(last.author && !last.fromMe ? { participant: toBaileysJid(last.author) } : {}),
    },
    messageTimestamp: last.timestamp,
  };
}

export class BaileysChats implements Chats {
  constructor(
    private readonly socket: () => WASocket | null,
    private readonly chatOf: ChatLookup,
    private readonly events: EngineEmitter,
  ) {}

  private open(): WASocket {
    const socket = this.socket();
    if (!socket) throw new Error('no open connection');
    return socket;
  }

  /**
   * Uploads `modification` up to the chat's last message (or its last activity, once its messages were cleared) and
   * tells the chat list `change`; false when the list does not hold the chat. The chat may be named by the other id
   * of its person: what goes to WhatsApp and to the list names it as the list holds it (`chatId` of the answer).
   */
  private async upToLast(
    requested: string,
    modification: (range: LastMessageList, last: WAMessage | null) => ChatModification,
    change?: Omit<ChatChange, 'id'>,
  ): Promise<{ success: boolean; chatId: string }> {
    const socket = this.open();
    const chat = await this.chatOf(requested);
    if (!chat) return { success: false, chatId: requested };
    const last = lastMessageOf(chat);
    const range: LastMessageList = last
      ? [last]
      : { lastMessageTimestamp: chat.timestamp ?? 0, messages: [] };
    await socket.chatModify(modification(range, last), toBaileysJid(chat.id));
    if (change) this.told({ id: chat.id, ...change });
    return { success: true, chatId: chat.id };
  }

  private told(change: ChatChange): void {
    this.events.emit('chatsChanged', { changes: [change] });
  }

  async markRead({ chatId, messageIds }: { chatId: string; messageIds?: string[] | undefined }) {
    const socket = this.open();
    if (messageIds) {
      const remoteJid = toBaileysJid(chatId);
      await socket.readMessages(messageIds.map((id) => ({ remoteJid, id, fromMe: false })));
      return { success: true };
    }
    const read = (range: LastMessageList, last: WAMessage | null): ChatModification => {
      // The contact sees the chat read (blue ticks) up to its last message, as when a person opens it.
      if (last && !last.key.fromMe) void socket.readMessages([last.key]).catch(() => undefined);
      return { markRead: true, lastMessages: range };
    };
    return success(await this.upToLast(chatId, read, { unread: { set: 0 } }));
  }

  async markUnread({ chatId }: { chatId: string }) {
    const unread = (range: LastMessageList) => ({ markRead: false, lastMessages: range });
    return success(await this.upToLast(chatId, unread, { markedUnread: true }));
  }

  async archive({ chatId, archive }: { chatId: string; archive: boolean }) {
    const archived = (range: LastMessageList) => ({ archive, lastMessages: range });
    return success(await this.upToLast(chatId, archived, { archived: archive }));
  }

  async pin({ chatId, pin }: { chatId: string; pin: boolean }) {
    const socket = this.open();
    const chat = await this.chatOf(chatId);
    if (!chat) return { success: false };
    await socket.chatModify({ pin }, toBaileysJid(chat.id));
    this.told({ id: chat.id, pinnedAt: pin ? Math.floor(Date.now() / 1000) : null });
    return { success: true };
  }

  async mute({ chatId, muteUntil }: { chatId: string; muteUntil: number | null }) {
    const socket = this.open();
    // 0 is "for ever", which WhatsApp writes as -1; null unmutes.
    const mute = muteUntil === null ? null : muteUntil === 0 ? MUTED_FOREVER : muteUntil;
    // Muting needs no last message: a chat the list lacks is muted under the id given.
    const id = (await this.chatOf(chatId))?.id ?? chatId;
    await socket.chatModify({ mute }, toBaileysJid(id));
    this.told({ id, muteUntil: mute });
    return { success: true as const };
  }

  async delete({ chatId }: { chatId: string }) {
    const done = await this.upToLast(chatId, (range) => ({ delete: true, lastMessages: range }));
    if (done.success) this.events.emit('chatsDeleted', { chatIds: [done.chatId] });
    return success(done);
  }

  async clear({ chatId }: { chatId: string }) {
    const done = await this.upToLast(chatId, (range) => ({ clear: true, lastMessages: range }));
    // Baileys emits nothing for a clear, even from another device: the stored messages go on this report.
    if (done.success) this.events.emit('chatCleared', { chatId: done.chatId });
    return success(done);
  }

  async typing({ chatId, state }: { chatId: string; state: 'typing' | 'recording' | 'paused' }) {
    await this.open().sendPresenceUpdate(CHAT_STATES[state], toBaileysJid(chatId));
    return { success: true as const };
  }
}

/** The operation's answer: whether it was done. */
function success(done: { success: boolean }): { success: boolean } {
  return { success: done.success };
}
