/**
 * The phone's chats: per chat jid, what WhatsApp's app-state chat actions set (archive, pin, mute, read or marked
 * unread, delete, clear) and what the messages the phone saw did (the last one, the unread count). Both the phone's
 * own changes (`chat-actions.ts`) and the actions companions upload (`app-state-upload.ts`) land here through
 * `applyChatAction`, so the phone's view is the one the app state describes. Index names, collections and API
 * versions are Baileys' (`chatModificationToAppPatch`), which are WhatsApp's.
 */
import { proto, toNumber } from '@whiskeysockets/baileys';
import type { MutationContent } from '#tests/wa-sim/crypto/app-state-crypto.js';
import type { Account, ChatMessageKey, PhoneChat } from './accounts.js';

/** The chat actions the phone writes and applies. */
export type ChatActionName = 'archive' | 'pin' | 'mute' | 'markRead' | 'clear' | 'delete';

/** Where WhatsApp keeps one chat action: its collection, the action's API version and its index for a chat. */
export interface ChatActionSpec {
  readonly collection: 'regular_low' | 'regular_high';
  readonly apiVersion: number;
  readonly index: (jid: string) => string[];
}

/** Each chat action as Baileys' `chatModificationToAppPatch` writes it. */
export const CHAT_ACTIONS: Readonly<Record<ChatActionName, ChatActionSpec>> = {
  archive: { collection: 'regular_low', apiVersion: 3, index: (jid) => ['archive', jid] },
  pin: { collection: 'regular_low', apiVersion: 5, index: (jid) => ['pin_v1', jid] },
  mute: { collection: 'regular_high', apiVersion: 2, index: (jid) => ['mute', jid] },
  markRead: { collection: 'regular_low', apiVersion: 3, index: (jid) => ['markChatAsRead', jid] },
  // '1': starred messages go too ('0' keeps them), as Baileys writes it; the last part is WhatsApp's, always '0'.
  clear: { collection: 'regular_high', apiVersion: 6, index: (jid) => ['clearChat', jid, '1', '0'] },
  delete: { collection: 'regular_high', apiVersion: 6, index: (jid) => ['deleteChat', jid, '1'] },
};

/** A chat as WhatsApp shows a new one: nothing set, no message. */
export function blankChat(jid: string): PhoneChat {
  return {
    jid,
    archived: false,
    pinnedAt: null,
    muteEndTimestamp: null,
    unreadCount: 0,
    markedUnread: false,
    deletedAt: null,
    clearedAt: null,
    lastMessage: undefined,
  };
}

/** The phone's chat `jid`, created blank on first use. */
export function chatOf(account: Account, jid: string): PhoneChat {
  let chat = account.chats.get(jid);
  if (!chat) {
    chat = blankChat(jid);
    account.chats.set(jid, chat);
  }
  return chat;
}

/**
 * Applies one app-state mutation to the phone's chats if it is a chat action; answers whether it was. A `REMOVE`
 * of an archive, pin or mute puts the chat back as it was without it.
 */
export function applyChatAction(
  account: Account,
  { operation, index, value }: Pick<MutationContent, 'operation' | 'index' | 'value'>,
): boolean {
  const [type, jid] = index;
  if (!jid) return false;
  const removed = operation === proto.SyncdMutation.SyncdOperation.REMOVE;
  const at = toNumber(value.timestamp) || Date.now();
  switch (type) {
    case 'archive':
      chatOf(account, jid).archived = !removed && value.archiveChatAction?.archived === true;
      return true;
    case 'pin_v1':
      chatOf(account, jid).pinnedAt = !removed && value.pinAction?.pinned ? at : null;
      return true;
    case 'mute': {
      const mute = value.muteAction;
      // Muted without an end is muted for ever, as WhatsApp writes it (-1).
      chatOf(account, jid).muteEndTimestamp =
        !removed && mute?.muted ? toNumber(mute.muteEndTimestamp) || -1 : null;
      return true;
    }
    case 'markChatAsRead':
      markRead(chatOf(account, jid), value.markChatAsReadAction?.read !== false || removed);
      return true;
    case 'clearChat':
      clear(chatOf(account, jid), at);
      return true;
    case 'deleteChat':
      remove(chatOf(account, jid), at);
      return true;
    default:
      return false;
  }
}

function markRead(chat: PhoneChat, read: boolean): void {
  chat.markedUnread = !read;
  if (read) chat.unreadCount = 0;
}

function clear(chat: PhoneChat, at: number): void {
  chat.clearedAt = at;
  chat.unreadCount = 0;
}

/** A deleted chat leaves the list with what it showed; a new message brings it back, unpinned and unarchived. */
function remove(chat: PhoneChat, at: number): void {
  chat.deletedAt = at;
  chat.archived = false;
  chat.pinnedAt = null;
  chat.unreadCount = 0;
  chat.markedUnread = false;
  chat.lastMessage = undefined;
}

/**
 * The phone saw a message in chat `key.remoteJid`: it is the chat's last, a deleted chat comes back, and an incoming
 * one counts as unread while the account's own (sent from any of its devices) reads the chat, as on a phone.
 */
export function noteChatMessage(account: Account, key: ChatMessageKey, timestamp: number): void {
  const chat = chatOf(account, key.remoteJid);
  const last = chat.lastMessage;
  if (!last || timestamp >= last.timestamp) chat.lastMessage = { key, timestamp };
  chat.deletedAt = null;
  if (key.fromMe) markRead(chat, true);
  else chat.unreadCount++;
}

/** A companion read chat `jid` (read receipts): the phone shows it read too. */
export function noteChatRead(account: Account, jid: string): void {
  const chat = account.chats.get(jid);
  if (chat) markRead(chat, true);
}

/**
 * The message range an archive, read, clear or delete action carries: the chat's last message as the phone knows it
 * (its key and timestamp), or nothing when it saw none.
 */
export function messageRangeOf(chat: PhoneChat): proto.SyncActionValue.ISyncActionMessageRange {
  const last = chat.lastMessage;
  if (!last) return {};
  return { lastMessageTimestamp: last.timestamp, messages: [{ key: last.key, timestamp: last.timestamp }] };
}

/** A chat as `GET /admin/accounts/{phone}/chats` shows it. */
export interface PhoneChatView {
  readonly jid: string;
  readonly archived: boolean;
  /** When it was pinned (epoch ms), or null. */
  readonly pinned: number | null;
  /** Muted until (epoch ms), -1 for ever, or null. */
  readonly muteEndTimestamp: number | null;
  /** No unread message and not marked unread. */
  readonly read: boolean;
  readonly unreadCount: number;
  readonly markedUnread: boolean;
  readonly deleted: boolean;
  readonly deletedAt: number | null;
  readonly clearedAt: number | null;
  readonly lastMessage: PhoneChat['lastMessage'];
}

/** The JSON view of a chat. */
export function chatView(chat: PhoneChat): PhoneChatView {
  return {
    jid: chat.jid,
    archived: chat.archived,
    pinned: chat.pinnedAt,
    muteEndTimestamp: chat.muteEndTimestamp,
    read: chat.unreadCount === 0 && !chat.markedUnread,
    unreadCount: chat.unreadCount,
    markedUnread: chat.markedUnread,
    deleted: chat.deletedAt !== null,
    deletedAt: chat.deletedAt,
    clearedAt: chat.clearedAt,
    lastMessage: chat.lastMessage,
  };
}
