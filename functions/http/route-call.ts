/**
 * A route called without HTTP: the transport (the HTTP stack, the MCP endpoint) authenticates the caller and hands
 * over the input parts as it received them; `callRoute` checks the caller's key against the route, parses each part
 * with the route's schemas and runs it, answering what `run` answers or throwing an AppError. Every transport thus
 * calls the very same definitions, with the same refusals in the same order.
 */
import { z } from 'zod';
import type { Deps } from '#functions/deps.js';
import type { Caller } from '#shared/domain/caller.js';
import { callerChatScope, callerMayAddressChat } from '#shared/domain/chat-scope.js';
import { type AppError, ForbiddenError, UnauthorizedError } from '#shared/errors/app-error.js';
import { type AccessRequirement, accessRefusal } from '#shared/use-cases/auth/authenticate.js';
import { assertSafeBody, parseInput, requireBody, withoutEmptyValues } from './parse-request.js';
import { RequestBody } from './request-body.js';
import { type AnyRoute, scopedSessionParam } from './route.js';

/** A route's input as a transport received it, before the route's schemas: strings for the path and the query. */
export interface RouteInput {
  params?: Readonly<Record<string, string>>;
  query?: Readonly<Record<string, string>>;
  /** The body as JSON (undefined: none was sent). */
  body?: unknown;
}

/** One call of a route, whatever carried it. */
export interface RouteCall {
  /** Who calls; `key` is set by the transport's authentication (null for a public route). */
  caller: Caller;
  input: RouteInput;
  /** The validated `Idempotency-Key` of an idempotent route, when the client sent one. */
  idempotencyKey?: string;
  /** A bearer token the client presented (the metrics route's own credential). */
  bearerToken?: string;
  /** A `streamedBody` route's body as the transport streams it (absent: `input.body`, parsed already, as text). */
  requestBody?: RequestBody;
}

/** Routes that take no body accept none (or `{}`); any field is unknown. */
const NoBody = z.strictObject({});

/**
 * What a route requires of the caller's key for this input (its role; unscoped keys only; the session its path
 * names), or null for a public route. Transports authenticate with it (`authenticate`), which audits a refusal.
 */
export function routeRequirement(route: AnyRoute, params: RouteInput['params']): AccessRequirement | null {
  if (route.auth === 'public') return null;
  const param = scopedSessionParam(route.path);
  const sessionId = param ? params?.[param] : undefined;
  return {
    role: route.auth.role,
    unscoped: route.auth.unscoped ?? false,
    ...(sessionId === undefined ? {} : { sessionId }),
    chats: route.chats !== undefined,
  };
}

/**
 * Refuses the caller's key as REST's authentication does: audited as api_key_auth_failed, stored before the error is
 * thrown (the next request reads it).
 */
export async function refuseKey(
  deps: Deps,
  caller: Caller,
  error: AppError,
  sessionId?: string,
): Promise<never> {
  await deps.audit.record(caller, {
    action: 'api_key_auth_failed',
    severity: 'warn',
    apiKeyId: caller.key?.id ?? null,
    apiKeyName: caller.key?.name ?? null,
    sessionId: sessionId?.slice(0, 36) ?? null,
    statusCode: error.status,
    errorMessage: error.message,
  });
  throw error;
}

/**
 * 403 FORBIDDEN_CHAT when the parsed input names a chat the caller's key is not limited to (the fields the route's
 * `chats.addresses` names, a string or a list of them, wherever the input has them), audited as a refused key.
 */
async function assertChatsAddressable(
  route: AnyRoute,
  caller: Caller,
  parts: readonly unknown[],
  sessionId: string | undefined,
  deps: Deps,
): Promise<void> {
  const fields = typeof route.chats === 'object' ? route.chats.addresses : undefined;
  if (!fields || callerChatScope(caller) === undefined) return;
  for (const part of parts) {
    if (typeof part !== 'object' || part === null) continue;
    for (const field of fields) {
      const value: unknown = (part as Record<string, unknown>)[field];
      const ids = typeof value === 'string' ? [value] : Array.isArray(value) ? value : [];
      const refused = ids.find(
        (id): id is string => typeof id === 'string' && !callerMayAddressChat(caller, id),
      );
      if (refused === undefined) continue;
      await refuseKey(
        deps,
        caller,
        new ForbiddenError('FORBIDDEN_CHAT', `API key is not allowed to address the chat ${refused}`),
        sessionId,
      );
    }
  }
}

/**
 * Runs `route` for `call`: the caller's key must meet the route's requirement (401 without one, 403 otherwise; the
 * transport's authentication has refused and audited such a caller already, so this only guards one that skipped
 * it), then the path, query and body are parsed in that order (400 with every issue's path), the chats they name
 * are checked against a key limited to chats (403), then `run`.
 */
export async function callRoute(route: AnyRoute, call: RouteCall, deps: Deps): Promise<unknown> {
  const { caller, input } = call;
  const requirement = routeRequirement(route, input.params);
  if (requirement) {
    if (!caller.key) throw new UnauthorizedError('Missing API key');
    const refusal = accessRefusal(caller.key, requirement);
    if (refusal) throw refusal;
  }
  const params = route.params ? parseInput(route.params, input.params ?? {}, 'path') : undefined;
  const query = route.query
    ? parseInput(route.query, withoutEmptyValues(input.query ?? {}), 'query')
    : undefined;
  if (route.streamedBody) {
    const requestBody = call.requestBody ?? RequestBody.ofJson(input.body);
    const { idempotencyKey, bearerToken } = call;
    return route.run({
      params,
      query,
      body: undefined,
      caller,
      deps,
      idempotencyKey,
      bearerToken,
      requestBody,
    });
  }
  if (input.body !== undefined) assertSafeBody(input.body);
  // A route with a body schema needs a body (requireBody); one without takes none, `null` or exactly `{}` (NoBody).
  const body =
    route.body !== undefined
      ? parseInput(route.body, requireBody(input.body), 'body')
      : input.body !== undefined && input.body !== null
        ? parseInput(NoBody, input.body, 'body')
        : {};
  await assertChatsAddressable(route, caller, [params, query, body], requirement?.sessionId, deps);
  return route.run({
    params,
    query,
    body,
    caller,
    deps,
    idempotencyKey: call.idempotencyKey,
    bearerToken: call.bearerToken,
  });
}
