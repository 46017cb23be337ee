/**
 * The `data` of the events a message change publishes (openwa-facts §4.4): `message.reaction`, `message.edited` and
 * `message.revoked`, built from the target row as the change left it. Ids are the network's, as the chat shows
 * them; `messageId` of a revoke is the stored row's id.
 */
import { z } from 'zod';
import type { Message } from './message.js';
import { reactionsOf } from './message-changes.js';
import { EventPersonIds, type PersonLookup } from './person-ids.js';
import { isGroupChat } from './wa-ids.js';

export const MessageReactionData = z.object({
  /** The network id of the message reacted to. */
  messageId: z.string(),
  chatId: z.string(),
  /** The emoji; '' when the sender took its reaction back. */
  reaction: z.string(),
  senderId: z.string(),
  /** The one who reacted (`senderId`) by phone number and by LID. */
  sender: EventPersonIds,
  fromMe: z.boolean(),
  /** Every sender's current reaction to the message, by sender id. */
  reactions: z.record(z.string(), z.string()),
  /** Epoch seconds of the reaction. */
  timestamp: z.number().int(),
});

export const MessageEditedData = z.object({
  /** The network id of the edited message. */
  messageId: z.string(),
  chatId: z.string(),
  body: z.string(),
  senderId: z.string(),
  from: z.string(),
  to: z.string(),
  author: z.string().nullable(),
  fromMe: z.boolean(),
  isGroup: z.boolean(),
  type: z.string(),
  hasMedia: z.boolean(),
  mentionedIds: z.array(z.string()).optional(),
  /** Who wrote and edited it (the author in a group, else `from`) by phone number and by LID. */
  sender: EventPersonIds,
  /** Epoch seconds of the edit. */
  timestamp: z.number().int(),
});

export const MessageRevokedData = z.object({
  /** The network id of the message deleted for everyone. */
  id: z.string(),
  /** The stored row's id. */
  messageId: z.string(),
  chatId: z.string(),
  from: z.string(),
  to: z.string(),
  author: z.string().nullable(),
  fromMe: z.boolean(),
  type: z.literal('revoked'),
  body: z.literal(''),
  /** Who wrote and deleted it (the author in a group, else `from`) by phone number and by LID. */
  sender: EventPersonIds,
  /** Epoch seconds of the revoke. */
  timestamp: z.number().int(),
});

/** The sender of a stored message in the form events name people: the author in a group, else `from`. */
function senderOf(message: Message): string {
  return message.author ?? message.from;
}

export function reactionEventData(
  message: Message,
  reaction: { senderId: string; emoji: string; timestamp: number; fromMe: boolean },
  people: PersonLookup,
): z.infer<typeof MessageReactionData> {
  const reactions = Object.fromEntries(
    Object.entries(reactionsOf(message)).map(([sender, { emoji }]) => [sender, emoji]),
  );
  return {
    messageId: message.waMessageId ?? message.id,
    chatId: message.chatId,
    reaction: reaction.emoji,
    senderId: reaction.senderId,
    sender: people(reaction.senderId),
    fromMe: reaction.fromMe,
    reactions,
    timestamp: reaction.timestamp,
  };
}

export function editedEventData(
  message: Message,
  timestamp: number,
  people: PersonLookup,
): z.infer<typeof MessageEditedData> {
  const mentions = message.metadata?.mentions;
  return {
    messageId: message.waMessageId ?? message.id,
    chatId: message.chatId,
    body: message.body ?? '',
    senderId: senderOf(message),
    from: message.from,
    to: message.to,
    author: message.author,
    fromMe: message.direction === 'outgoing',
    isGroup: isGroupChat(message.chatId),
    type: message.type,
    hasMedia: message.mediaPath !== null,
    ...(Array.isArray(mentions) ? { mentionedIds: mentions.map(String) } : {}),
    sender: people(senderOf(message)),
    timestamp,
  };
}

export function revokedEventData(
  message: Message,
  timestamp: number,
  people: PersonLookup,
): z.infer<typeof MessageRevokedData> {
  return {
    id: message.waMessageId ?? message.id,
    messageId: message.id,
    chatId: message.chatId,
    from: message.from,
    to: message.to,
    author: message.author,
    fromMe: message.direction === 'outgoing',
    type: 'revoked',
    body: '',
    sender: people(senderOf(message)),
    timestamp,
  };
}
