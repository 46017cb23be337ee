import { defineRoute } from '#functions/http/route.js';
import { Message, SendTextBody } from '#shared/domain/message.js';
import { sendOrReplay } from '#shared/use-cases/messages/send-message.js';
import { MessageSessionParams } from './params.js';
import { sentResponse } from './sent-response.js';

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
  idempotent: true,
  run: ({ deps, caller, params, idempotencyKey, body: { chatId, ...text } }) =>
    sendOrReplay(
      deps,
      caller,
      params.sessionId,
      { chatId, content: { type: 'text', ...text }, idempotencyKey },
      deps.env.SEND_WAIT_MS,
    ).then(sentResponse),
});
