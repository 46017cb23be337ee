import middy from '@middy/core';
import type { Context } from 'aws-lambda';
import { executionModeLean } from '#functions/http/execution-mode.js';

type Request = middy.Request<{ n: number }, string, Error, Context>;
const context = {} as Context;

/** A handler on the lean mode recording the order in which its parts ran. */
function stack(parts: {
  handler?: (event: { n: number }) => Promise<string>;
  before?: (request: Request) => unknown;
  after?: (request: Request) => unknown;
  onError?: (request: Request) => unknown;
}) {
  const calls: string[] = [];
  const handler = middy<{ n: number }, string, Error, Context>({
    timeoutEarlyInMillis: 0,
    executionMode: executionModeLean,
  })
    .use({
      before: (request) => {
        calls.push('before');
        return parts.before?.(request);
      },
      after: (request) => {
        calls.push('after');
        return parts.after?.(request);
      },
      onError: (request) => {
        calls.push('onError');
        return parts.onError?.(request);
      },
    })
    .handler(async (event: { n: number }) => {
      calls.push('handler');
      return parts.handler ? parts.handler(event) : `n=${event.n}`;
    });
  return { handler, calls };
}

describe('the lean middy execution mode', () => {
  it('runs before, the handler and after in order and answers the handler result as after left it', async () => {
    const { handler, calls } = stack({
      after: (request) => {
        request.response = `${request.response}!`;
      },
    });
    expect(await handler({ n: 1 }, context)).toBe('n=1!');
    expect(calls).toEqual(['before', 'handler', 'after']);
  });

  it('waits for asynchronous middlewares before going on', async () => {
    const { handler, calls } = stack({
      before: async (request) => {
        await new Promise((resolve) => setTimeout(resolve, 5));
        request.event.n = 2;
      },
      after: async (request) => {
        await new Promise((resolve) => setTimeout(resolve, 5));
        request.response = `${request.response} late`;
      },
    });
    expect(await handler({ n: 1 }, context)).toBe('n=2 late');
    expect(calls).toEqual(['before', 'handler', 'after']);
  });

  it('answers a value a before middleware returns without running the handler', async () => {
    const { handler, calls } = stack({ before: () => 'early' });
    expect(await handler({ n: 1 }, context)).toBe('early');
    expect(calls).toEqual(['before']);
  });

  it('lets onError answer a failed handler, with the error on the request', async () => {
    const { handler, calls } = stack({
      handler: async () => {
        throw new Error('boom');
      },
      onError: (request) => {
        request.response = `handled ${request.error?.message}`;
      },
    });
    expect(await handler({ n: 1 }, context)).toBe('handled boom');
    expect(calls).toEqual(['before', 'handler', 'onError']);
  });

  it('rethrows the error when onError leaves no response', async () => {
    const { handler, calls } = stack({
      before: () => {
        throw new Error('refused');
      },
    });
    await expect(handler({ n: 1 }, context)).rejects.toThrow('refused');
    expect(calls).toEqual(['before', 'onError']);
  });
});
