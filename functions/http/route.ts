/**
 * The shape of one route module: method, path, zod schemas, role and `run`. Everything else (parsing, auth,
 * errors, logging, metrics) is done once by the shared stack in http-handler.ts.
 */
import type { z } from 'zod';
import type { Deps } from '#functions/deps.js';
import type { Caller } from '#shared/domain/caller.js';
import type { EngineCapability } from '#shared/domain/engine-capabilities.js';
import type { HttpMethod } from '#shared/domain/http-method.js';
import type { Role } from '#shared/domain/roles.js';
import type { ErrorCode } from '#shared/errors/app-error.js';
import type { RequestBody } from './request-body.js';

export type { HttpMethod } from '#shared/domain/http-method.js';

/**
 * A response the route builds itself (non-JSON bodies such as Prometheus text, the docs page or a media file). A
 * byte body travels base64-encoded in the Lambda answer (`isBase64Encoded`), as API Gateway wants binary bodies.
 */
export class RawResponse {
  constructor(
    readonly statusCode: number,
    readonly body: string | Uint8Array,
    readonly headers: Record<string, string>,
  ) {}
}

/**
 * An answer whose body is written piece by piece as `pieces` yields them (the data export): memory stays one piece
 * whatever the body's size. Transport-neutral: how it travels is streamed-body.ts's concern.
 */
export class StreamedResponse {
  constructor(
    readonly statusCode: number,
    readonly pieces: AsyncIterable<string>,
    readonly headers: Record<string, string>,
  ) {}
}

/** A JSON body answered with extra response headers (a replayed send's `Idempotent-Replayed`). */
export class WithHeaders {
  constructor(
    readonly body: unknown,
    readonly headers: Record<string, string>,
  ) {}
}

/** How a route's raw success answer is documented: its media type, its headers and, if it may, a redirect instead. */
export interface BinaryResponse {
  /** The success body's media type, or a media range when it varies (any type: star-slash-star). */
  mediaType: string;
  description: string;
  /** Response headers the success answer always carries, by name, with what they say. */
  headers: Record<string, string>;
  /** When the route may answer 302 to the file's location instead, what says when. */
  redirect?: string;
}

/**
 * How a route meets a key limited to chats (shared/domain/chat-scope.ts). `none`: it names no chat and tells of
 * none (reading the session). `addresses`: the input fields (of the path, query or body, by name) that name a chat;
 * each one present must be in the key's list, else 403 FORBIDDEN_CHAT. `lists`: its use case filters the chats (or
 * the items of chats) it answers to the key's list. A route without `chats` refuses such a key (403
 * FORBIDDEN_CHAT_RESTRICTED): key management, webhooks, the session's lifecycle, account-wide settings.
 */
export type RouteChats = 'none' | { addresses?: readonly string[]; lists?: true };

export type RouteAuth =
  | 'public'
  | { role: Role /** Session-scoped keys are refused (403). */; unscoped?: boolean };

/**
 * What `run` gets, whatever transport carried the call (route-call.ts): the authenticated caller and the parsed input.
 */
export interface RouteContext<P, Q, B> {
  params: P;
  query: Q;
  body: B;
  caller: Caller;
  deps: Deps;
  /** The validated `Idempotency-Key` of an `idempotent` route, when the client sent one. */
  idempotencyKey?: string | undefined;
  /** A bearer token the client presented (the metrics route's own credential). */
  bearerToken?: string | undefined;
  /** The raw body of a `streamedBody` route (its `body` is then undefined): the route reads and checks it. */
  requestBody?: RequestBody | undefined;
}

/** How large a streamed body a route takes, and the code of its 413 past that. */
export interface StreamedBodyRule {
  maxBytes(env: Deps['env']): number;
  tooLargeCode: ErrorCode;
}

type Schema = z.ZodType;
type Out<S> = S extends z.ZodType ? z.output<S> : undefined;

export interface RouteDefinition<
  P extends Schema | undefined,
  Q extends Schema | undefined,
  B extends Schema | undefined,
> {
  method: HttpMethod;
  /** API Gateway style path: `/api/sessions/{id}`. A `{id}` or `{sessionId}` under /api/sessions is scope-checked. */
  path: string;
  summary: string;
  tag: string;
  auth: RouteAuth;
  params?: P;
  query?: Q;
  body?: B;
  /** Schema of the success body, for the OpenAPI document. */
  response?: Schema;
  /** A success answered with raw bytes instead of JSON (the OpenAPI document describes it so). */
  binaryResponse?: BinaryResponse;
  success: 200 | 201 | 202 | 204;
  /** Error statuses this route documents besides the common ones (never 501: that comes from `capability`). */
  errors?: readonly number[];
  /** Error statuses answered with a body of their own instead of the Error schema (readiness: its 503). */
  errorBodies?: Readonly<Record<number, Schema>>;
  /**
   * The engine capability the route needs. Its use case refuses engines without it (501 ENGINE_UNSUPPORTED, from
   * the capability table) and the OpenAPI document describes that 501. Such a route has a row in the tests' table
   * of what it answers per engine kind (tests/helpers/capability-routes.ts); a unit test fails while it has none.
   */
  capability?: EngineCapability;
  /** How the route meets a key limited to chats; absent: such a key is refused. */
  chats?: RouteChats;
  /** Health and metrics skip the REST rate limit. */
  rateLimited?: boolean;
  /**
   * The route takes an optional `Idempotency-Key` header (a single send): the stack validates it (400
   * IDEMPOTENCY_KEY_INVALID) and hands it to `run` as `idempotencyKey`, and the OpenAPI document describes it with
   * its 409/422 answers and the `Idempotent-Replayed` response header, which `run` sets through WithHeaders.
   */
  idempotent?: boolean;
  /**
   * A send that send pacing may refuse (shared/domain/send-pacing.ts says which kinds are): the OpenAPI document
   * describes its 429 SEND_PACING_LIMITED with `retryAfterSeconds` and Retry-After.
   */
  paced?: boolean;
  /**
   * The route reads its body itself, as it arrives (`requestBody`): the stack neither buffers nor parses it, and
   * `body` only documents it. Where the transport streams (the embedded gateway) the body may reach `maxBytes(env)`
   * (413 with `tooLargeCode` past it); a buffered (Lambda) body keeps BODY_SIZE_LIMIT.
   */
  streamedBody?: StreamedBodyRule;
  run(ctx: RouteContext<Out<P>, Out<Q>, Out<B>>): Promise<unknown>;
}

/** A route with its schema types erased, as the router and the OpenAPI generator hold them. */
export interface AnyRoute {
  method: HttpMethod;
  path: string;
  summary: string;
  tag: string;
  auth: RouteAuth;
  params?: Schema;
  query?: Schema;
  body?: Schema;
  response?: Schema;
  binaryResponse?: BinaryResponse;
  success: 200 | 201 | 202 | 204;
  errors?: readonly number[];
  errorBodies?: Readonly<Record<number, Schema>>;
  capability?: EngineCapability;
  chats?: RouteChats;
  rateLimited?: boolean;
  idempotent?: boolean;
  paced?: boolean;
  streamedBody?: StreamedBodyRule;
  run(ctx: RouteContext<unknown, unknown, unknown>): Promise<unknown>;
}

/** Declares a route; the generics carry the schemas' output types into `run`. */
export function defineRoute<
  P extends Schema | undefined = undefined,
  Q extends Schema | undefined = undefined,
  B extends Schema | undefined = undefined,
>(route: RouteDefinition<P, Q, B>): AnyRoute {
  return route as unknown as AnyRoute;
}

/** The session id a route acts on, taken from its path parameters, if the route is session-scoped. */
export function scopedSessionParam(path: string): 'id' | 'sessionId' | null {
  if (path.startsWith('/api/sessions/{id}')) return 'id';
  if (path.startsWith('/api/sessions/{sessionId}')) return 'sessionId';
  return null;
}
