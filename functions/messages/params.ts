import { z } from 'zod';
import { ChatId } from '#shared/domain/message.js';
import { MessageIdField } from '#shared/domain/send-requests.js';

/** `{sessionId}` of the message routes. */
export const MessageSessionParams = z.strictObject({
  sessionId: z.uuid({ message: 'must be a session id (uuid)' }),
});

/** `{sessionId}/…/{chatId}/{messageId}` of the routes about one stored message (network id or stored id). */
export const ChatMessageParams = MessageSessionParams.extend({ chatId: ChatId, messageId: MessageIdField });
