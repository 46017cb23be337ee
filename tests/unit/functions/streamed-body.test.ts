import { describe, expect, it } from '@jest/globals';
import {
  acceptStreamedBody,
  BUFFERED_ANSWER_MAX_BYTES,
  streamedBodyOf,
  streamedResult,
} from '#functions/http/streamed-body.js';
import { AppError } from '#shared/errors/app-error.js';
import { lambdaEvent } from '#tests/helpers/lambda-event.js';

async function* pieces(count: number, size: number): AsyncIterable<string> {
  for (let i = 0; i < count; i += 1) yield 'x'.repeat(size);
}

describe('streamed answers', () => {
  it('leave the pieces to a transport that streams, reading none of them', async () => {
    const event = lambdaEvent({ method: 'GET', path: '/api/infra/export-data' });
    acceptStreamedBody(event);
    let read = 0;
    const counted = (async function* () {
      for await (const piece of pieces(3, 10)) {
        read += 1;
        yield piece;
      }
    })();
    const result = await streamedResult(event, 200, { 'content-type': 'application/json' }, counted);
    expect(read).toBe(0);
    const body: string[] = [];
    for await (const piece of streamedBodyOf(result) ?? []) body.push(piece);
    expect(body.join('')).toBe('x'.repeat(30));
  });

  it('are collected into one body where the transport buffers (Lambda)', async () => {
    const event = lambdaEvent({ method: 'GET', path: '/api/infra/export-data' });
    const result = await streamedResult(event, 200, {}, pieces(4, 1000));
    expect(streamedBodyOf(result)).toBeUndefined();
    expect(result.body).toBe('x'.repeat(4000));
  });

  it('are refused past the buffered cap (413 EXPORT_TOO_LARGE) instead of failing the invocation', async () => {
    const event = lambdaEvent({ method: 'GET', path: '/api/infra/export-data' });
    const size = 1_000_000;
    const over = Math.ceil(BUFFERED_ANSWER_MAX_BYTES / size) + 1;
    const refusal = await streamedResult(event, 200, {}, pieces(over, size)).catch((error: unknown) => error);
    expect(refusal).toBeInstanceOf(AppError);
    expect(refusal).toMatchObject({ status: 413, code: 'EXPORT_TOO_LARGE' });
  });
});
