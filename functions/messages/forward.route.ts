import { ForwardBody } from '#shared/domain/send-requests.js';
import { defineSendRoute } from './send-route.js';

/** POST …/messages/forward: sends a stored message of one chat to another, marked as forwarded. */
export const forwardRoute = defineSendRoute({
  action: 'forward',
  summary: 'Forward a message to another chat',
  body: ForwardBody,
  chatFields: ['fromChatId', 'toChatId'],
  request: ({ fromChatId, toChatId, messageId }) => ({
    chatId: toChatId,
    content: { type: 'forward', fromChatId, messageId },
  }),
});
