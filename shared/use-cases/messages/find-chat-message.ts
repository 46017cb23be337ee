import { z } from 'zod';
import type { Message } from '#shared/domain/message.js';
import { NotFoundError } from '#shared/errors/app-error.js';
import type { MessageStore } from '#shared/ports/message-store.port.js';

/**
 * The stored message a message route names in its path: by network id, or by stored id (a uuid); 404
 * MESSAGE_NOT_FOUND when the session has none or it belongs to another chat.
 */
export async function findChatMessage(
  messages: MessageStore,
  sessionId: string,
  chatId: string,
  messageId: string,
): Promise<Message> {
  const message =
    (await messages.findByWaMessageId(sessionId, messageId)) ??
    (z.uuid().safeParse(messageId).success ? await messages.findById(sessionId, messageId) : null);
  if (!message || message.chatId !== chatId) {
    throw new NotFoundError(`Message '${messageId}' not found in chat ${chatId}`, {
      code: 'MESSAGE_NOT_FOUND',
    });
  }
  return message;
}
