import { DeleteBody } from '#shared/domain/send-requests.js';
import { defineSendRoute } from './send-route.js';

/** POST …/messages/delete: deletes a message this account sent for everyone. */
export const deleteMessageRoute = defineSendRoute({
  action: 'delete',
  summary: 'Delete a sent message for everyone',
  body: DeleteBody,
  request: ({ chatId, messageId }) => ({ chatId, content: { type: 'revoke', messageId } }),
  paced: false,
});
