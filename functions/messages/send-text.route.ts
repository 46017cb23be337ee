import { SendTextBody } from '#shared/domain/send-requests.js';
import { defineSendRoute } from './send-route.js';

/** POST /api/sessions/{sessionId}/messages/send-text: 201 with the stored message (`sent`, or `pending`). */
export const sendTextRoute = defineSendRoute({
  action: 'send-text',
  summary: 'Send a text message',
  body: SendTextBody,
  request: ({ chatId, ...text }) => ({ chatId, content: { type: 'text', ...text } }),
});
