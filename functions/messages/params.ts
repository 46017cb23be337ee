import { z } from 'zod';
import { ChatId } from '#shared/domain/message.js';
import { BatchIdField } from '#shared/domain/message-batch.js';
import { MessageIdField } from '#shared/domain/send-requests.js';

const SessionId = z.uuid({ message: 'must be a session id (uuid)' });

/** `{sessionId}` of the message routes. */
export const MessageSessionParams = z.strictObject({ sessionId: SessionId });

/** `{sessionId}/…/{chatId}` of the routes about one chat's stored messages. */
export const ChatParams = MessageSessionParams.extend({ chatId: ChatId });

/** `{sessionId}/…/{chatId}/{messageId}` of the routes about one stored message (network id or stored id). */
export const ChatMessageParams = ChatParams.extend({ messageId: MessageIdField });

/** `{sessionId}` and `{batchId}` of the batch routes. */
export const BatchParams = z.strictObject({ sessionId: SessionId, batchId: BatchIdField });
