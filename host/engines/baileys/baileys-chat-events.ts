/**
 * What Baileys tells of the account's chats, as chat changes for the gateway's chat list: the chats of history sync
 * (`messaging-history.set`), the account's app state from any of its devices (`chats.update`: archive, pin, mute,
 * read or marked unread; `chats.delete`) and new chats (`chats.upsert`). Baileys also reports each message as a
 * chat update with an unread count to add; the gateway counts the messages it stores itself, so those counts are
 * left out. WhatsApp may name a person's chat by LID: it is filed under the phone number when Baileys knows it, as
 * the chat's messages are.
 */
import type { Chat, ChatUpdate, WASocket } from '@whiskeysockets/baileys';
import { type ChatChange, MUTED_FOREVER } from '#shared/domain/chat.js';
import type { EngineEmitter } from '../engine-events.js';
import { toNeutralJid } from './baileys-jids.js';

/** A number Baileys may hand over as a protobuf Long. */
const numberOf = (value: unknown): number | null =>
  value === null || value === undefined ? null : Number(value);

/** A mute "for ever": -1, or as history's unsigned field carries it (2^64 - 1, or any negative). */
const isForever = (value: number) => value < 0 || value >= 2 ** 53;

/**
 * The change a chat's state fields make (those Baileys reported), without its id. WhatsApp's units differ by source:
 * app-state updates carry the pin time and the mute's end in ms, history sync in seconds (`history`).
 */
function stateOf(chat: Partial<Chat>, history: boolean): Omit<ChatChange, 'id'> {
  const change: Omit<ChatChange, 'id'> = {};
  if (typeof chat.name === 'string' && chat.name.length > 0) change.name = chat.name;
  if (typeof chat.archived === 'boolean') change.archived = chat.archived;
  if (chat.pinned !== undefined) {
    const pinned = numberOf(chat.pinned);
    change.pinnedAt = pinned ? (history ? pinned : Math.floor(pinned / 1000)) : null;
  }
  if (chat.muteEndTime !== undefined) {
    const until = numberOf(chat.muteEndTime);
    if (!until) change.muteUntil = null;
    else if (isForever(until)) change.muteUntil = MUTED_FOREVER;
    else change.muteUntil = history ? until * 1000 : until;
  }
  // -1: marked unread by hand (history says so with markedAsUnread); 0: read. A positive count is a message's,
  // which the gateway counts itself.
  if (chat.unreadCount === -1 || chat.markedAsUnread === true) change.markedUnread = true;
  else if (chat.unreadCount === 0) change.unread = { set: 0 };
  return change;
}

export class BaileysChatEvents {
  /** Reports go out in the order Baileys gave them, though a LID's phone number is looked up on the way. */
  private tail: Promise<void> = Promise.resolve();

  constructor(private readonly events: EngineEmitter) {}

  listen(socket: WASocket): void {
    const inOrder = (report: () => Promise<void>) => {
      this.tail = this.tail.then(report).catch(() => undefined);
    };
    socket.ev.on('messaging-history.set', ({ chats }) => inOrder(() => this.report(socket, chats, true)));
    socket.ev.on('chats.upsert', (chats) => inOrder(() => this.report(socket, chats, false)));
    socket.ev.on('chats.update', (updates: ChatUpdate[]) =>
      inOrder(() => this.report(socket, updates, false)),
    );
    socket.ev.on('chats.delete', (ids) =>
      inOrder(async () => {
        const chatIds = await Promise.all(ids.map((id) => this.chatIdOf(socket, id)));
        this.events.emit('chatsDeleted', { chatIds });
      }),
    );
  }

  /** Reports the chats' changes; from history, a chat's own unread count and activity time come too. */
  private async report(socket: WASocket, chats: readonly Partial<Chat>[], history: boolean): Promise<void> {
    const changes: ChatChange[] = [];
    for (const chat of chats) {
      if (!chat.id) continue;
      const state = stateOf(chat, history);
      if (history) {
        const unread = numberOf(chat.unreadCount);
        if (unread !== null && unread > 0) state.unread = { set: unread };
        const timestamp = numberOf(chat.conversationTimestamp);
        if (timestamp) state.timestamp = timestamp;
      }
      if (Object.keys(state).length === 0) continue;
      changes.push({ id: await this.chatIdOf(socket, chat.id), ...state });
    }
    if (changes.length > 0) this.events.emit('chatsChanged', { changes });
  }

  /** The chat's id in neutral form, a LID chat under its phone number when Baileys has the mapping. */
  private async chatIdOf(socket: WASocket, jid: string): Promise<string> {
    if (!jid.endsWith('@lid')) return toNeutralJid(jid);
    const phone = await socket.signalRepository.lidMapping.getPNForLID(jid).catch(() => null);
    return toNeutralJid(phone ?? jid);
  }
}
