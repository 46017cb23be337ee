import { ReplyBody } from '#shared/domain/send-requests.js';
import { defineSendRoute } from './send-route.js';

/** POST …/messages/reply: a text quoting a message of the chat (404 when the chat has no such message). */
export const replyRoute = defineSendRoute({
  action: 'reply',
  summary: 'Reply to a message (a text that quotes it)',
  body: ReplyBody,
  request: ({ chatId, ...text }) => ({ chatId, content: { type: 'text', ...text } }),
});
