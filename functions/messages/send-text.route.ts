import { defineRoute } from '#functions/http/route.js';
import { Message, SendTextBody } from '#shared/domain/message.js';
import { sendMessage } from '#shared/use-cases/messages/send-message.js';
import { MessageSessionParams } from './params.js';

/** POST /api/sessions/{sessionId}/messages/send-text: 201 with the stored message (`sent`, or `pending`). */
export const sendTextRoute = defineRoute({
  method: 'POST',
  path: '/api/sessions/{sessionId}/messages/send-text',
  summary: 'Send a text message',
  tag: 'Messages',
  auth: { role: 'operator' },
  params: MessageSessionParams,
  body: SendTextBody,
  response: Message,
  success: 201,
  errors: [404],
  run: ({ deps, caller, params, body: { chatId, ...text } }) =>
    sendMessage(
      deps,
      caller,
      params.sessionId,
      { chatId, content: { type: 'text', ...text } },
      deps.env.SEND_WAIT_MS,
    ),
});
