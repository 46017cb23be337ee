/**
 * Chats: the conversations of a session's account, as the chat list shows them (openwa-facts §3 ChatSummary). The
 * browser-free engine keeps no chat list of its own, so the gateway keeps one (ChatStore), fed by the engine's
 * history sync, every message stored and the account's app-state (archive, mute, pin, read) from any of its devices.
 */
import { z } from 'zod';

/** The kind of conversation a chat id names. */
export const ChatKind = z.enum(['individual', 'group', 'broadcast', 'unknown']);
export type ChatKind = z.infer<typeof ChatKind>;

/** The kind of `chatId` (`@c.us` and `@lid` name a person, `@g.us` a group, `@broadcast` a list or status). */
export function chatKindOf(chatId: string): ChatKind {
  if (chatId.endsWith('@c.us') || chatId.endsWith('@lid')) return 'individual';
  if (chatId.endsWith('@g.us')) return 'group';
  if (chatId.endsWith('@broadcast')) return 'broadcast';
  return 'unknown';
}

/** The last message of a chat, as much of it as the list shows. */
export const ChatLastMessage = z.object({
  /** The network's message id. */
  id: z.string(),
  fromMe: z.boolean(),
  /** In a group, who wrote it (neutral id); null elsewhere and for the account's own messages. */
  author: z.string().nullable(),
  /** text, image, … as stored messages have it. */
  type: z.string(),
  /** Its text or caption; null for media without one and for kinds without text. */
  body: z.string().nullable(),
  /** Epoch seconds. */
  timestamp: z.number().int(),
});
export type ChatLastMessage = z.infer<typeof ChatLastMessage>;

/** A mute that never ends, as WhatsApp writes it (muteEndTimestamp -1). */
export const MUTED_FOREVER = -1;

/** A chat as stored. */
export interface ChatRecord {
  id: string;
  /** The group's subject or the contact's name as the account knows it; null when not known. */
  name: string | null;
  /** Messages received since the chat was last read (0 once read). */
  unreadCount: number;
  /** Marked unread by hand (WhatsApp's "mark as unread"): shown unread with no count. */
  markedUnread: boolean;
  /** Epoch seconds of the chat's last activity; null when only its settings are known. */
  timestamp: number | null;
  lastMessage: ChatLastMessage | null;
  archived: boolean;
  /** Epoch seconds when it was pinned; null when not pinned. */
  pinnedAt: number | null;
  /** Epoch ms when its mute ends (MUTED_FOREVER: never); null when not muted. */
  muteUntil: number | null;
}

/**
 * What an engine or a stored message reports of a chat: each field given is applied, the rest left as stored. A
 * chat the store does not hold yet is created with the defaults (no name, read, not archived, pinned or muted).
 */
export const ChatChange = z.object({
  id: z.string(),
  /** A name only replaces the stored one when it is not null (a later report without one keeps it). */
  name: z.string().nullable().optional(),
  /** Kept only when it is newer (by timestamp) than the stored one, or the stored one has the same id. */
  lastMessage: ChatLastMessage.optional(),
  /** Moves the chat's activity forward only: an older timestamp leaves it. */
  timestamp: z.number().int().optional(),
  /**
   * `{ set }` replaces the count (history sync, read: 0); `{ add }` adds to it (a message received). Neither goes
   * below 0; `set: 0` also clears `markedUnread`.
   */
  unread: z.union([z.object({ set: z.number().int() }), z.object({ add: z.number().int() })]).optional(),
  markedUnread: z.boolean().optional(),
  archived: z.boolean().optional(),
  pinnedAt: z.number().int().nullable().optional(),
  muteUntil: z.number().int().nullable().optional(),
  /**
   * The chat's messages were cleared: its last message goes and it reads as read, before the change's other fields
   * apply (a message after the clear may come with it). Its settings and activity time stay.
   */
  cleared: z.literal(true).optional(),
});
export type ChatChange = z.infer<typeof ChatChange>;

/** A chat as the API answers it (`GET …/chats`). */
export const ChatSummary = z
  .object({
    id: z.string(),
    name: z.string().nullable(),
    isGroup: z.boolean(),
    kind: ChatKind,
    unreadCount: z.number().int().min(0),
    /** Marked unread by hand, with no count. */
    markedUnread: z.boolean(),
    /** Epoch seconds of the last activity; null when only the chat's settings are known. */
    timestamp: z.number().int().nullable(),
    lastMessage: ChatLastMessage.nullable(),
    archived: z.boolean(),
    pinned: z.boolean(),
    muted: z.boolean(),
    /** While muted: epoch ms when the mute ends, 0 when it never does; null when not muted. */
    muteExpiration: z.number().int().nullable(),
  })
  .meta({ id: 'ChatSummary' });
export type ChatSummary = z.infer<typeof ChatSummary>;

/**
 * The chat list's order (every ChatStore's `list`): timestamp descending with chats without one last, then id in code-unit order (what SQLite's
 * binary collation gives for the ASCII ids WhatsApp uses).
 */
export function mostRecentFirst(a: ChatRecord, b: ChatRecord): number {
  if (a.timestamp !== b.timestamp) {
    if (a.timestamp === null) return 1;
    if (b.timestamp === null) return -1;
    return b.timestamp - a.timestamp;
  }
  if (a.id !== b.id) return a.id < b.id ? -1 : 1;
  return 0;
}

/** The API's answer for a stored chat, `nowMs` deciding whether a timed mute still holds. */
export function chatSummaryOf(chat: ChatRecord, nowMs: number): ChatSummary {
  const kind = chatKindOf(chat.id);
  const muted = chat.muteUntil !== null && (chat.muteUntil === MUTED_FOREVER || chat.muteUntil > nowMs);
  return {
    id: chat.id,
    name: chat.name,
    isGroup: kind === 'group',
    kind,
    unreadCount: chat.unreadCount,
    markedUnread: chat.markedUnread,
    timestamp: chat.timestamp,
    lastMessage: chat.lastMessage,
    archived: chat.archived,
    pinned: chat.pinnedAt !== null,
    muted,
    muteExpiration: !muted || chat.muteUntil === null ? null : Math.max(chat.muteUntil, 0),
  };
}

/** A chat the store does not hold yet, as a first change creates it. */
export function newChat(id: string): ChatRecord {
  return {
    id,
    name: null,
    unreadCount: 0,
    markedUnread: false,
    timestamp: null,
    lastMessage: null,
    archived: false,
    pinnedAt: null,
    muteUntil: null,
  };
}

/** `chat` with `change` applied, by the rules ChatChange states: every adapter applies changes through this. */
export function applyChatChange(chat: ChatRecord, change: ChatChange): ChatRecord {
  const next = change.cleared
    ? { ...chat, lastMessage: null, unreadCount: 0, markedUnread: false }
    : { ...chat };
  if (change.name !== undefined && change.name !== null) next.name = change.name;
  const last = change.lastMessage;
  const stored = next.lastMessage;
  if (last && (!stored || last.id === stored.id || last.timestamp >= stored.timestamp)) {
    next.lastMessage = last;
  }
  const activity = change.timestamp ?? last?.timestamp;
  if (activity !== undefined && (chat.timestamp === null || activity > chat.timestamp))
    next.timestamp = activity;
  if (change.unread) {
    next.unreadCount =
      'set' in change.unread
        ? Math.max(change.unread.set, 0)
        : Math.max(next.unreadCount + change.unread.add, 0);
    if ('set' in change.unread && change.unread.set === 0) next.markedUnread = false;
  }
  if (change.markedUnread !== undefined) next.markedUnread = change.markedUnread;
  if (change.archived !== undefined) next.archived = change.archived;
  if (change.pinnedAt !== undefined) next.pinnedAt = change.pinnedAt;
  if (change.muteUntil !== undefined) next.muteUntil = change.muteUntil;
  return next;
}
