import { ReactBody } from '#shared/domain/send-requests.js';
import { defineSendRoute } from './send-route.js';

/** POST …/messages/react: reacts to a message of the chat; an empty emoji takes the reaction back. */
export const reactRoute = defineSendRoute({
  action: 'react',
  summary: 'React to a message',
  body: ReactBody,
  request: ({ chatId, messageId, emoji }) => ({ chatId, content: { type: 'reaction', messageId, emoji } }),
  paced: false,
});
