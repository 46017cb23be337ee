import { defineRoute, RawResponse } from '#functions/http/route.js';
import { getMessageMedia } from '#shared/use-cases/messages/get-message-media.js';
import { ChatMessageParams } from './params.js';

/**
 * GET …/messages/{chatId}/{messageId}/media: the message's archived file, always as a download (`attachment`,
 * `nosniff`, a sandboxing CSP), typed only from the allow-map; from S3, a file too large for a Lambda answer is a 302
 * to a presigned URL that works for a minute.
 */
export const getMediaRoute = defineRoute({
  method: 'GET',
  path: '/api/sessions/{sessionId}/messages/{chatId}/{messageId}/media',
  summary: 'Archived media of a message',
  tag: 'Messages',
  auth: { role: 'viewer' },
  params: ChatMessageParams,
  binaryResponse: {
    mediaType: '*/*',
    description:
      'The file. Content-Type is its media type when that is on the allow-list (images, audio, video, PDF and office ' +
      'documents), application/octet-stream otherwise.',
    headers: {
      'Content-Disposition': '`attachment; filename="<message id>.<extension>"`',
      'X-Content-Type-Options': '`nosniff`',
      'Cache-Control': '`private`',
    },
    redirect:
      'aws mode, files over 4 MiB: a presigned S3 URL valid for 60 s that serves the file with the same ' +
      'Content-Type and Content-Disposition. Clients that follow redirects with an X-API-Key header send it there too; ' +
      'Authorization: Bearer is dropped on the way.',
  },
  success: 200,
  errors: [404],
  run: async ({ deps, caller, params }) => {
    const answer = await getMessageMedia(deps, caller, params.sessionId, params.chatId, params.messageId);
    if (answer.kind === 'redirect') {
      return new RawResponse(302, '', { location: answer.url, 'cache-control': 'no-store' });
    }
    return new RawResponse(200, answer.bytes, {
      'content-type': answer.contentType,
      'content-length': String(answer.bytes.byteLength),
      'content-disposition': answer.contentDisposition,
      'x-content-type-options': 'nosniff',
      'content-security-policy': "default-src 'none'; sandbox",
      'cache-control': 'private',
    });
  },
});
