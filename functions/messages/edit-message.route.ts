import { EditBody } from '#shared/domain/send-requests.js';
import { defineSendRoute } from './send-route.js';

/** POST …/messages/edit: a new text for a text this account sent (WhatsApp's 15-minute window). */
export const editMessageRoute = defineSendRoute({
  action: 'edit',
  summary: 'Edit a sent text',
  body: EditBody,
  request: ({ chatId, messageId, body, mentions }) => ({
    chatId,
    content: { type: 'edit', messageId, text: body, mentions },
  }),
});
