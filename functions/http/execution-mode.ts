/**
 * The middy execution mode of the HTTP stack: the standard mode's order and rules (before middlewares, the handler,
 * after middlewares; on a throw the onError middlewares, which may answer; a middleware that returns a value answers
 * early) without the per-request AbortController and early-timeout timer. This stack never uses them
 * (timeoutEarlyInMillis is 0 and no route takes a signal), and creating the controller's signal alone cost about
 * 5 µs per request, a quarter of the stack's own CPU on the read path. Plugin hooks are not supported (none is set).
 */
import type middy from '@middy/core';
import type { PluginExecutionMode } from '@middy/core';
import type { Context } from 'aws-lambda';

type AnyRequest = middy.Request<unknown, unknown, unknown, Context>;
type Middleware = (request: AnyRequest) => unknown;
type Handler = (event: unknown, context: Context) => unknown;

/** What middy core hands an execution mode (see @middy/core's executionModeStandard). */
interface CoreParts {
  middyRequest(event: unknown, context: Context): AnyRequest;
}

/**
 * Runs middlewares in order; true when one of them answered early (its answer is the response). Stays synchronous
 * while the middlewares are (this stack's before middlewares are), so they cost no promise or microtask turn.
 */
function runMiddlewares(
  middlewares: readonly Middleware[],
  request: AnyRequest,
  from = 0,
): boolean | Promise<boolean> {
  for (let i = from; i < middlewares.length; i++) {
    const result = middlewares[i]?.(request);
    if (result instanceof Promise) return settle(result, middlewares, request, i);
    if (answered(request, result)) return true;
  }
  return false;
}

async function settle(
  pending: Promise<unknown>,
  middlewares: readonly Middleware[],
  request: AnyRequest,
  index: number,
): Promise<boolean> {
  if (answered(request, await pending)) return true;
  return runMiddlewares(middlewares, request, index + 1);
}

/** Applies a middleware's result: a value, or an earlier `request.earlyResponse`, is the answer. */
function answered(request: AnyRequest, result: unknown): boolean {
  if (result !== undefined) request.earlyResponse = result;
  if (!('earlyResponse' in request)) return false;
  request.response = request.earlyResponse;
  return true;
}

/** Waits only for what is pending. */
const resolved = async <T>(value: T | Promise<T>): Promise<T> => value;

function leanExecutionMode(
  core: CoreParts,
  before: readonly Middleware[],
  initialHandler: Handler,
  after: readonly Middleware[],
  onError: readonly Middleware[],
) {
  let handler = initialHandler;
  const run = async (event: unknown, context: Context): Promise<unknown> => {
    const request = core.middyRequest(event, context);
    try {
      let early = runMiddlewares(before, request);
      if (early instanceof Promise) early = await early;
      if (!early) {
        request.response = await handler(request.event, request.context);
        const finished = runMiddlewares(after, request);
        if (finished instanceof Promise) await finished;
      }
    } catch (error) {
      request.response = undefined;
      delete request.earlyResponse;
      request.error = error;
      await resolved(runMiddlewares(onError, request));
      if (request.response === undefined) throw request.error;
    }
    return request.response;
  };
  run.handler = (replacement: Handler) => {
    handler = replacement;
    return run;
  };
  return run;
}

/** Pass as middy's `executionMode` (its type is declared as an opaque function). */
export const executionModeLean = leanExecutionMode as unknown as PluginExecutionMode;
