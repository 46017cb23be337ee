/**
 * The Baileys engine's chats port (rows of shared/domain/engine-operations/chats.ts): each operation is an app-state
 * patch the socket uploads for every device of the account (`chatModify`), or a chat state or read receipt sent to
 * the chat. WhatsApp ties archive, read state, delete and clear to the chat's last message (the patch's message
 * range), which Baileys 7 does not keep: it comes from the gateway's chat list, and a chat without a known message
 * is declined (`success: false`), as the spec says of this engine.
 */
import type { ChatModification, WAMessage, WASocket } from '@whiskeysockets/baileys';
import { type ChatRecord, MUTED_FOREVER } from '#shared/domain/chat.js';
import type { PortOperations } from '#shared/domain/engine-operations/engine-operations.js';
import type { EngineEmitter } from '../engine-events.js';
import { toBaileysJid } from './baileys-jids.js';

type Chats = PortOperations<'chats'>;

/** The gateway's record of one of the session's chats (the chat store), null when it has none. */
export type ChatLookup = (chatId: string) => Promise<ChatRecord | null>;

const CHAT_STATES = { typing: 'composing', recording: 'recording', paused: 'paused' } as const;

/** The chat's last message as the patch's message range names it; null without one. */
function lastMessageOf(chat: ChatRecord | null): WAMessage | null {
  const last = chat?.lastMessage;
  if (!chat || !last) return null;
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

  /** Uploads `modification` up to the chat's last message; false when no message of the chat is known. */
  private async upToLast(
    chatId: string,
    modification: (last: WAMessage) => ChatModification,
  ): Promise<{ success: boolean }> {
    const socket = this.open();
    const last = lastMessageOf(await this.chatOf(chatId));
    if (!last) return { success: false };
    await socket.chatModify(modification(last), toBaileysJid(chatId));
    return { success: true };
  }

  async markRead({ chatId, messageIds }: { chatId: string; messageIds?: string[] | undefined }) {
    const socket = this.open();
    if (messageIds) {
      const remoteJid = toBaileysJid(chatId);
      await socket.readMessages(messageIds.map((id) => ({ remoteJid, id, fromMe: false })));
      return { success: true };
    }
    return this.upToLast(chatId, (last) => {
      // The contact sees the chat read (blue ticks) up to its last message, as when a person opens it.
      if (!last.key.fromMe) void socket.readMessages([last.key]).catch(() => undefined);
      return { markRead: true, lastMessages: [last] };
    });
  }

  markUnread({ chatId }: { chatId: string }) {
    return this.upToLast(chatId, (last) => ({ markRead: false, lastMessages: [last] }));
  }

  archive({ chatId, archive }: { chatId: string; archive: boolean }) {
    return this.upToLast(chatId, (last) => ({ archive, lastMessages: [last] }));
  }

  async pin({ chatId, pin }: { chatId: string; pin: boolean }) {
    const socket = this.open();
    if (!(await this.chatOf(chatId))) return { success: false };
    await socket.chatModify({ pin }, toBaileysJid(chatId));
    return { success: true };
  }

  async mute({ chatId, muteUntil }: { chatId: string; muteUntil: number | null }) {
    const socket = this.open();
    // 0 is "for ever", which WhatsApp writes as -1; null unmutes.
    const mute = muteUntil === null ? null : muteUntil === 0 ? MUTED_FOREVER : muteUntil;
    await socket.chatModify({ mute }, toBaileysJid(chatId));
    return { success: true as const };
  }

  async delete({ chatId }: { chatId: string }) {
    const done = await this.upToLast(chatId, (last) => ({ delete: true, lastMessages: [last] }));
    // Baileys reports its own patch too; the store forgets a chat once, whichever comes first.
    if (done.success) this.events.emit('chatsDeleted', { chatIds: [chatId] });
    return done;
  }

  async clear({ chatId }: { chatId: string }) {
    const done = await this.upToLast(chatId, (last) => ({ clear: true, lastMessages: [last] }));
    // Baileys emits nothing for a clear (not even its own): the stored messages go on this report.
    if (done.success) this.events.emit('chatCleared', { chatId });
    return done;
  }

  async typing({ chatId, state }: { chatId: string; state: 'typing' | 'recording' | 'paused' }) {
    await this.open().sendPresenceUpdate(CHAT_STATES[state], toBaileysJid(chatId));
    return { success: true as const };
  }
}
