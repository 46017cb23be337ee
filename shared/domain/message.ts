/** Messages: the stored record (spec "Message (stored record)"), statuses, and the send-text request. */
import { z } from 'zod';
import { IsoTimestamp, Uuid } from './common.js';
import { PersonIds } from './person-ids.js';

export const MESSAGE_STATUSES = ['pending', 'sent', 'delivered', 'read', 'failed'] as const;
export const MessageStatus = z.enum(MESSAGE_STATUSES);
export type MessageStatus = z.infer<typeof MessageStatus>;

/** Acknowledgements only move forward: pending → sent → delivered → read (failed is terminal). */
const RANK: Record<MessageStatus, number> = { pending: 0, sent: 1, delivered: 2, read: 3, failed: 4 };

/** True when `next` is a real advance over `current` (a late "delivered" never overwrites "read"). */
export function isStatusAdvance(current: MessageStatus, next: MessageStatus): boolean {
  if (current === 'failed' || current === next) return false;
  if (next === 'failed') return current === 'pending';
  return RANK[next] > RANK[current];
}

export const MessageDirection = z.enum(['incoming', 'outgoing']);
export type MessageDirection = z.infer<typeof MessageDirection>;

/**
 * Chat ids: `<number>@c.us` (personal), `<id>@lid` (a person by LID, as WhatsApp may name them) or `<id>@g.us`
 * (group; ids may contain a hyphen).
 */
export const ChatId = z
  .string()
  .max(128)
  .regex(
    /^[0-9]{5,20}@c\.us$|^[0-9]{5,20}@lid$|^[0-9]{5,20}(-[0-9]{5,20})?@g\.us$/,
    'must be <number>@c.us, <id>@lid or <group id>@g.us',
  );

export const Message = z.object({
  id: Uuid,
  sessionId: Uuid,
  waMessageId: z.string().nullable(),
  chatId: z.string(),
  chatName: z.string().nullable(),
  author: z.string().nullable(),
  from: z.string(),
  to: z.string(),
  body: z.string().nullable(),
  type: z.string(),
  direction: MessageDirection,
  /** Epoch seconds. */
  timestamp: z.number().int().nullable(),
  metadata: z.record(z.string(), z.unknown()).nullable(),
  status: MessageStatus,
  mediaPath: z.string().nullable(),
  mediaMimetype: z.string().nullable(),
  createdAt: IsoTimestamp,
});
export type Message = z.infer<typeof Message>;

/** A message as the API answers it: the stored row and its sender by both ids, as the pairings stand when read. */
export const MessageView = Message.extend({
  /** Who wrote it (the author in a group, else `from`) by phone number and by LID. */
  sender: PersonIds.nullable(),
}).meta({ id: 'Message' });
export type MessageView = z.infer<typeof MessageView>;
