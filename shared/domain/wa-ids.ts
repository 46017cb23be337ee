/**
 * WhatsApp identifiers in the gateway's neutral form: personal chats `<number>@c.us`, groups `<id>@g.us`. Engines
 * translate to their own dialect (Baileys: `@s.whatsapp.net`) at their edge.
 */
import { randomBytes } from 'node:crypto';

/**
 * A network message id generated before sending, in the format WhatsApp clients use (`3EB0` + 18 hex). Stored
 * with the row first, so a redelivered send command re-sends the same message instead of a second one.
 */
export function generateWaMessageId(): string {
  return `3EB0${randomBytes(9).toString('hex').toUpperCase()}`;
}

/** `15550001111@c.us` for a phone number (digits). */
export function personalChatId(phone: string): string {
  return `${phone}@c.us`;
}

/** A bare phone number as a client may write one for a chat: an optional `+`, then 5–20 digits. */
export const BARE_PHONE = /^\+?[0-9]{5,20}$/;

/** The chat id a value names: a bare phone number becomes `<number>@c.us`, any other value is already an id. */
export function chatIdOf(value: string): string {
  return BARE_PHONE.test(value) ? personalChatId(value.replace(/^\+/, '')) : value;
}

export function isGroupChat(chatId: string): boolean {
  return chatId.endsWith('@g.us');
}
