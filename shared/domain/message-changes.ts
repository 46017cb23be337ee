/**
 * Changes to a stored message after it arrived or was sent: a reaction (added, changed or taken back), an edit of its
 * text and a revoke (delete for everyone). They come from the network (a contact reacts, edits, deletes) and from
 * this gateway's own sends; both apply them to the target row here, so history shows a message as the chat does.
 * Applying a change twice, or an older change after a newer one, leaves the row as it is (`null`), so a redelivered
 * change is stored and published once.
 */
import { z } from 'zod';
import type { Message } from './message.js';

/** One sender's reaction to a message (epoch-second time of the reaction). */
export const StoredReaction = z.object({ emoji: z.string(), timestamp: z.number() });

/** `metadata.reactions` of a message: each sender's current reaction, by sender id. */
export const StoredReactions = z.record(z.string(), StoredReaction);
export type StoredReactions = z.infer<typeof StoredReactions>;

/**
 * A change, who made it (`senderId`, neutral form) and in which chat. It applies only to a message of that chat, and
 * an edit or revoke only to a message its sender sent: a crafted change of someone else's message changes nothing.
 */
export type MessageChange = {
  chatId: string;
  senderId: string;
  timestamp: number;
} /** `emoji` '' takes the sender's reaction back. */ & (
  | { kind: 'reaction'; emoji: string }
  | { kind: 'edit'; body: string; mentions?: readonly string[] }
  | { kind: 'revoke' }
);

/** The stored type of a message deleted for everyone (openwa-facts §1.2 delete). */
export const REVOKED_TYPE = 'revoked';

/** The kinds of stored message an edit may change: a text (a reply is a text that quotes). */
const EDITABLE_TYPES = new Set(['text']);

export function isEditableType(type: string): boolean {
  return EDITABLE_TYPES.has(type);
}

/** The reactions a stored message holds (an unreadable entry is left out, never the rest). */
export function reactionsOf(message: Pick<Message, 'metadata'>): StoredReactions {
  const raw = message.metadata?.reactions;
  if (!raw || typeof raw !== 'object' || Array.isArray(raw)) return {};
  const reactions: StoredReactions = {};
  for (const [sender, value] of Object.entries(raw)) {
    const parsed = StoredReaction.safeParse(value);
    if (parsed.success) reactions[sender] = parsed.data;
  }
  return reactions;
}

/** `message` with `change` applied, or null when the change leaves it as it is (a repeat, or out of date). */
export function applyMessageChange(message: Message, change: MessageChange): Message | null {
  if (message.type === REVOKED_TYPE || message.chatId !== change.chatId) return null;
  if (change.kind !== 'reaction' && (message.author ?? message.from) !== change.senderId) return null;
  switch (change.kind) {
    case 'reaction':
      return withReaction(message, change.senderId, change.emoji, change.timestamp);
    case 'edit':
      return withEdit(message, change.body, change.timestamp, change.mentions);
    case 'revoke':
      // What was said is gone for everyone: the row keeps only that, and when, it was deleted.
      return {
        ...message,
        type: REVOKED_TYPE,
        body: null,
        metadata: { revokedAt: change.timestamp },
        mediaPath: null,
        mediaMimetype: null,
      };
  }
}

function withReaction(message: Message, senderId: string, emoji: string, timestamp: number): Message | null {
  const reactions = reactionsOf(message);
  const current = reactions[senderId];
  if (current && current.timestamp > timestamp) return null;
  if ((current?.emoji ?? '') === emoji) return null;
  if (emoji === '') delete reactions[senderId];
  else reactions[senderId] = { emoji, timestamp };
  const { reactions: _old, ...rest } = message.metadata ?? {};
  const metadata = Object.keys(reactions).length > 0 ? { ...rest, reactions } : rest;
  return { ...message, metadata: Object.keys(metadata).length > 0 ? metadata : null };
}

function withEdit(
  message: Message,
  body: string,
  timestamp: number,
  mentions: readonly string[] | undefined,
): Message | null {
  const editedAt = message.metadata?.editedAt;
  if (typeof editedAt === 'number' && editedAt > timestamp) return null;
  if (message.body === body && sameMentions(message.metadata?.mentions, mentions)) return null;
  const { mentions: _old, ...rest } = message.metadata ?? {};
  return {
    ...message,
    body,
    metadata: { ...rest, editedAt: timestamp, ...(mentions?.length ? { mentions: [...mentions] } : {}) },
  };
}

function sameMentions(stored: unknown, next: readonly string[] | undefined): boolean {
  const before = Array.isArray(stored) ? stored.map(String) : [];
  const after = next ?? [];
  return before.length === after.length && before.every((id, i) => id === after[i]);
}
