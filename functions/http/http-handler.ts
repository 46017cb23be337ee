/**
 * The single middy stack every resource Lambda uses: header normalisation, request id and client IP, rate limit,
 * authentication, zod parsing of path/query/body, the route's use case, and one error mapper. One handler per
 * resource group; its routes are found by API Gateway's route key (or, behind a catch-all route, by path).
 */
import { randomUUID } from 'node:crypto';
import middy from '@middy/core';
import type { APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2, Context } from 'aws-lambda';
import { type Deps, depsReady, getDeps } from '#functions/deps.js';
import type { Caller } from '#shared/domain/caller.js';
import {
  MethodNotAllowedError,
  NotFoundError,
  RateLimitedError,
  ValidationError,
} from '#shared/errors/app-error.js';
import type { Logger } from '#shared/ports/logger.port.js';
import { resolveClientIp } from '#shared/security/ip.js';
import { authenticate } from '#shared/use-cases/auth/authenticate.js';
import { errorResponse, jsonResponse } from './error-response.js';
import { executionModeLean } from './execution-mode.js';
import { flushAfterRequest } from './flush-after-request.js';
import {
  decodePathParameters,
  parseJsonBody,
  readBody,
  readIdempotencyKey,
  readQuery,
} from './parse-request.js';
import { bearerOf, presentedKey } from './presented-key.js';
import { requestBodyOf } from './request-body.js';
import { type AnyRoute, RawResponse, StreamedResponse, WithHeaders } from './route.js';
import { callRoute, routeRequirement } from './route-call.js';
import { RouteTable } from './route-table.js';
import { streamedResult } from './streamed-body.js';

type Event = APIGatewayProxyEventV2;
type Result = APIGatewayProxyStructuredResultV2;

interface RequestState {
  startedAt: number;
  requestId: string;
  route: string;
}

/** Each request's state rides on its event (a WeakMap keyed by event cost measurably more in GC). */
const STATE = Symbol('request-state');
type StatefulEvent = Event & { [STATE]?: RequestState };
const stateOf = (event: Event): RequestState | undefined => (event as StatefulEvent)[STATE];
const REQUEST_ID = /^[\w.-]{1,128}$/;

function callerOf(event: Event, deps: Deps, requestId: string): Caller {
  const http = event.requestContext.http;
  return {
    key: null,
    ip: resolveClientIp(http.sourceIp || null, event.headers['x-forwarded-for'], deps.env.TRUSTED_PROXIES),
    userAgent: event.headers['user-agent'] ?? null,
    requestId,
    method: http.method,
    path: event.rawPath,
  };
}

async function runRoute(route: AnyRoute, event: Event): Promise<Result> {
  const deps = getDeps();
  const state = stateOf(event);
  if (state) state.route = route.path;
  const caller = callerOf(event, deps, state?.requestId ?? randomUUID());

  // Settings saved by another process reach this one within SETTINGS_MAX_AGE_MS (no wait while fresh).
  const refreshing = deps.settings.refreshIfStale();
  if (refreshing) await refreshing;
  if (route.rateLimited !== false) {
    const decision = deps.rateLimiter.hit(caller.ip ?? 'unknown', deps.clock.now().getTime());
    if (!decision.allowed) {
      void deps.audit.record(caller, {
        action: 'rate_limit_exceeded',
        severity: 'warn',
        statusCode: 429,
        metadata: { subject: caller.ip ?? 'unknown', kind: 'rest' },
      });
      throw new RateLimitedError(decision.retryAfterSeconds);
    }
  }

  // While draining, authenticated writes are refused (the rule is the drain signal's, shared with the MCP tools).
  const draining = route.auth === 'public' ? null : deps.drain.writeRefusal(route.method);
  if (draining) throw draining;

  const params = decodePathParameters(event.pathParameters);
  // The size limit comes before authentication, as the embedded gateway enforces it while streaming: in aws mode the
  // body has arrived whole (API Gateway caps it at 10 MB) and this is the only place BODY_SIZE_LIMIT is enforced.
  const streamed = route.streamedBody;
  const requestBody = streamed
    ? requestBodyOf(
        event,
        { maxBytes: streamed.maxBytes(deps.env), code: streamed.tooLargeCode },
        deps.env.BODY_SIZE_LIMIT,
      )
    : undefined;
  const bodyText = streamed ? undefined : readBody(event, deps.env.BODY_SIZE_LIMIT);
  const requirement = routeRequirement(route, params);
  if (requirement) {
    const authDeps = { apiKeys: deps.main.apiKeys, usage: deps.usage, audit: deps.audit, clock: deps.clock };
    caller.key = await authenticate(authDeps, presentedKey(event.headers), caller, requirement);
  }
  const query = readQuery(event);
  const body = parseJsonBody(bodyText, event.headers['content-type']);
  const idempotencyKey = route.idempotent ? readIdempotencyKey(event.headers) : undefined;
  const result = await callRoute(
    route,
    {
      caller,
      input: { params, query, body },
      idempotencyKey,
      bearerToken: bearerOf(event.headers),
      ...(requestBody ? { requestBody } : {}),
    },
    deps,
  );
  if (result instanceof RawResponse) {
    const { statusCode, body } = result;
    if (typeof body === 'string') return { statusCode, headers: { ...result.headers }, body };
    const encoded = Buffer.from(body.buffer, body.byteOffset, body.byteLength).toString('base64');
    return { statusCode, headers: { ...result.headers }, body: encoded, isBase64Encoded: true };
  }
  if (result instanceof StreamedResponse)
    return streamedResult(event, result.statusCode, result.headers, result.pieces);
  if (result instanceof WithHeaders) return jsonResponse(route.success, result.body, { ...result.headers });
  if (route.success === 204) return { statusCode: 204, headers: {}, body: '' };
  return jsonResponse(route.success, result);
}

function observe(): middy.MiddlewareObj<Event, Result> {
  return {
    before: (request) => {
      // The client's own id when it sent a well-formed one, else the invocation's: unique per request on Lambda,
      // in serverless offline (whose API Gateway request id is one constant) and in the embedded gateway.
      const header = request.event.headers['x-request-id'];
      const requestId =
        header && REQUEST_ID.test(header)
          ? header
          : request.context.awsRequestId || request.event.requestContext.requestId || randomUUID();
      (request.event as StatefulEvent)[STATE] = {
        startedAt: performance.now(),
        requestId,
        route: 'unmatched',
      };
      // An encoded NUL anywhere in the path is refused before routing (inside a parameter it is refused anyway).
      if (/%00/i.test(request.event.rawPath))
        throw new ValidationError('Path must not contain NUL characters');
    },
    after: (request) => {
      finish(request.event, request.response);
      return flushAfterRequest();
    },
    onError: (request) => {
      request.response = errorResponse(request.error, requestLogger(stateOf(request.event)));
      finish(request.event, request.response);
      return flushAfterRequest();
    },
  };
}

/** The request's logger, created only when something is logged (a child logger per request costs). */
function requestLogger(state: RequestState | undefined): Logger {
  const logger = getDeps().logger;
  return state ? logger.child({ reqId: state.requestId }) : logger;
}

function finish(event: Event, response: Result | null | undefined): void {
  const state = stateOf(event);
  if (!state || !response) return;
  const deps = getDeps();
  const status = response.statusCode ?? 200;
  // Every response's headers object is its own (jsonResponse, the 204 and raw answers build one), so add in place.
  response.headers ??= {};
  response.headers['x-request-id'] = state.requestId;
  const ms = performance.now() - state.startedAt;
  const method = event.requestContext.http.method;
  deps.metrics.http.record(method, state.route, status, ms / 1000);
  const level = status >= 500 ? 'error' : 'debug';
  if (!deps.logger.isLevelEnabled(level)) return;
  const line = { method, path: event.rawPath, route: state.route, status, ms: Math.round(ms * 10) / 10 };
  requestLogger(state)[level](line, status >= 500 ? 'request failed' : 'request');
}

/**
 * The route a request is for: by the key API Gateway chose (its path parameters come with it), else by its path (a
 * catch-all route, such as the docs function's `*`). A path no route of the handler serves is answered from `api`,
 * the whole API's routes: 405 with `Allow` when it serves the path with other methods, else the standard 404.
 */
function routeOf(table: RouteTable<AnyRoute>, api: RouteTable<unknown>, event: Event): AnyRoute {
  const chosen = table.get(event.routeKey);
  if (chosen) return chosen;
  const method = event.requestContext.http.method;
  const matched = table.match(method, event.rawPath);
  if (!matched) {
    const allowed = api.methodsOf(event.rawPath);
    if (allowed.length > 0) throw new MethodNotAllowedError(method, event.rawPath, allowed);
    throw new NotFoundError(`Route ${method} ${event.rawPath} not found`, { code: 'ROUTE_NOT_FOUND' });
  }
  event.routeKey = matched.routeKey;
  event.pathParameters = matched.params;
  return matched.value;
}

export interface ResourceHandlerOptions {
  /**
   * Every route of the API, for a handler that also receives what no route claims (API Gateway's `$default` route,
   * the embedded gateway's unmatched requests): it answers 405 for a known path asked with another method. A
   * handler reached only through its own routes' keys leaves it out.
   */
  catchAll?: readonly AnyRoute[];
}

/**
 * Builds the Lambda handler of one resource group from its route modules. Header names arrive lower-cased: API
 * Gateway's payload 2.0, serverless offline and the embedded gateway all give them so.
 */
export function createResourceHandler(routes: readonly AnyRoute[], options: ResourceHandlerOptions = {}) {
  const table = new RouteTable<AnyRoute>();
  for (const route of routes) table.add(route.method, route.path, route);
  const api = new RouteTable<true>();
  for (const route of options.catchAll ?? routes) api.add(route.method, route.path, true);
  return middy<Event, Result, Error, Context>({ timeoutEarlyInMillis: 0, executionMode: executionModeLean })
    .use({ before: () => depsReady() })
    .use(observe())
    .handler((event: Event) => runRoute(routeOf(table, api, event), event));
}
