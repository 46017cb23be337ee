import { defineRoute } from '#functions/http/route.js';
import { getMessageMedia } from '#shared/use-cases/messages/get-message-media.js';
import { MEDIA_BINARY_RESPONSE, mediaAnswerResponse } from './media-response.js';
import { ChatMessageParams } from './params.js';

/** GET …/messages/{chatId}/{messageId}/media: the message's archived file (as media-response.ts answers it). */
export const getMediaRoute = defineRoute({
  method: 'GET',
  path: '/api/sessions/{sessionId}/messages/{chatId}/{messageId}/media',
  summary: 'Archived media of a message',
  tag: 'Messages',
  auth: { role: 'viewer' },
  chats: { addresses: ['chatId'] },
  params: ChatMessageParams,
  binaryResponse: MEDIA_BINARY_RESPONSE('message id'),
  success: 200,
  errors: [404],
  run: async ({ deps, caller, params }) =>
    mediaAnswerResponse(
      await getMessageMedia(deps, caller, params.sessionId, params.chatId, params.messageId),
    ),
});
