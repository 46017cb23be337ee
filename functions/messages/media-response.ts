/**
 * How an archived file is answered (message media, status media): always as a download (`attachment`, `nosniff`,
 * a sandboxing CSP), typed only from the allow-map; from S3, a file too large for a Lambda answer is a 302 to a
 * presigned URL that works for a minute.
 */
import { RawResponse } from '#functions/http/route.js';
import type { MediaAnswer } from '#shared/use-cases/messages/get-message-media.js';

/** The OpenAPI description of such an answer; `idName` names what the file is called after. */
export const MEDIA_BINARY_RESPONSE = (idName: string) => ({
  mediaType: '*/*',
  description:
    'The file. Content-Type is its media type when that is on the allow-list (images, audio, video, PDF and office ' +
    'documents), application/octet-stream otherwise.',
  headers: {
    'Content-Disposition': `\`attachment; filename="<${idName}>.<extension>"\``,
    'X-Content-Type-Options': '`nosniff`',
    'Cache-Control': '`private`',
  },
  redirect:
    'aws mode, files over 4 MiB: a presigned S3 URL valid for 60 s that serves the file with the same ' +
    'Content-Type and Content-Disposition. Clients that follow redirects with an X-API-Key header send it there too; ' +
    'Authorization: Bearer is dropped on the way.',
});

export function mediaAnswerResponse(answer: MediaAnswer): RawResponse {
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
}
