/**
 * Answers written piece by piece (the data export), so that a body of any size never sits in memory whole. Only a
 * transport that writes as it reads can take one: the embedded gateway marks its events so (`acceptStreamedBody`)
 * and writes the pieces to the socket; a Lambda answer is one buffer of at most ~6 MB, so there the pieces are
 * collected up to that cap and a larger body is refused (413 EXPORT_TOO_LARGE) instead of failing the invocation.
 */
import type { APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2 } from 'aws-lambda';
import { AnswerTooLargeError } from '#shared/errors/app-error.js';

/** The most bytes a buffered answer holds: API Gateway's 6 MB Lambda payload, less room for headers. */
export const BUFFERED_ANSWER_MAX_BYTES = 6_000_000;

const STREAMABLE = Symbol('streamable');
const PIECES = Symbol('pieces');

/** A body of text pieces, read once, in order. */
export type BodyPieces = AsyncIterable<string>;

/** Marks an event whose transport writes a streamed body as it comes (the embedded gateway). */
export function acceptStreamedBody(event: APIGatewayProxyEventV2): void {
  (event as unknown as Record<symbol, boolean>)[STREAMABLE] = true;
}

/** The pieces of a streamed answer, when the handler left them for the transport to write. */
export function streamedBodyOf(result: APIGatewayProxyStructuredResultV2): BodyPieces | undefined {
  return (result as unknown as Record<symbol, BodyPieces | undefined>)[PIECES];
}

/**
 * The handler's answer for a streamed body: the pieces themselves where the transport writes them, else the
 * pieces collected (413 EXPORT_TOO_LARGE past BUFFERED_ANSWER_MAX_BYTES).
 */
export async function streamedResult(
  event: APIGatewayProxyEventV2,
  statusCode: number,
  headers: Record<string, string>,
  pieces: BodyPieces,
): Promise<APIGatewayProxyStructuredResultV2> {
  if ((event as unknown as Record<symbol, boolean>)[STREAMABLE]) {
    const result: APIGatewayProxyStructuredResultV2 = { statusCode, headers: { ...headers }, body: '' };
    (result as unknown as Record<symbol, BodyPieces>)[PIECES] = pieces;
    return result;
  }
  const collected: string[] = [];
  let bytes = 0;
  for await (const piece of pieces) {
    bytes += Buffer.byteLength(piece);
    if (bytes > BUFFERED_ANSWER_MAX_BYTES) {
      throw new AnswerTooLargeError(
        'EXPORT_TOO_LARGE',
        `The answer exceeds the ${BUFFERED_ANSWER_MAX_BYTES}-byte cap of a buffered (Lambda) answer`,
        { details: { maxBytes: BUFFERED_ANSWER_MAX_BYTES } },
      );
    }
    collected.push(piece);
  }
  return { statusCode, headers: { ...headers }, body: collected.join('') };
}
