/** The message items of the data table: their keys, history sort key and mapping to the Message record. */
import { type Message, Message as MessageSchema } from '#shared/domain/message.js';
import type { Item } from './dynamodb-support.js';

export const messageKey = (id: string) => ({ pk: `MESSAGE#${id}`, sk: 'MESSAGE' });
export const waKey = (sessionId: string, waMessageId: string) => ({
  pk: `WAMSG#${sessionId}#${waMessageId}`,
  sk: 'LOCK',
});

/**
 * The history sort key: newest first under a descending query means timestamp, then createdAt, then id, all
 * descending, and messages without a timestamp last ('0' sorts below '1').
 */
export function messageOrderKey(message: Message): string {
  const time = message.timestamp === null ? '0' : `1#${String(message.timestamp).padStart(15, '0')}`;
  return `${time}#${message.createdAt}#${message.id}`;
}

/** Every field of a message, in schema order. */
const FIELDS = MessageSchema.keyof().options;

export function toMessage(item: Item): Message {
  const message: Record<string, unknown> = {};
  for (const field of FIELDS) message[field] = item[field] ?? null;
  const metadata = message.metadata;
  message.metadata =
    metadata !== null && typeof metadata === 'object' && !Array.isArray(metadata) ? metadata : null;
  return message as Message;
}
