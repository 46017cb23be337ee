import { defineRoute } from '#functions/http/route.js';
import { MessageView } from '#shared/domain/message.js';
import { SendTemplateBody } from '#shared/domain/template.js';
import { sendTemplate } from '#shared/use-cases/messages/send-template.js';
import { MessageSessionParams } from './params.js';
import { sentResponse } from './sent-response.js';

/**
 * POST /api/sessions/{sessionId}/messages/send-template: renders a stored template and sends it as a text (201 with
 * the stored message; 400 TEMPLATE_VARIABLES_MISSING naming every placeholder without a value; 404 unknown template).
 */
export const sendTemplateRoute = defineRoute({
  method: 'POST',
  path: '/api/sessions/{sessionId}/messages/send-template',
  summary: 'Send a message template',
  tag: 'Messages',
  auth: { role: 'operator' },
  chats: { addresses: ['chatId'] },
  params: MessageSessionParams,
  body: SendTemplateBody,
  response: MessageView,
  success: 201,
  errors: [404],
  idempotent: true,
  paced: true,
  run: ({ deps, caller, params, body, idempotencyKey }) =>
    sendTemplate(deps, caller, params.sessionId, body, deps.env.SEND_WAIT_MS, idempotencyKey).then(
      sentResponse,
    ),
});
