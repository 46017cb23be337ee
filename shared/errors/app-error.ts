/**
 * The one error hierarchy of the gateway. Use cases throw these; each transport (HTTP, MCP, host RPC) maps them
 * once. `code` is a stable string so the meaning survives a process boundary, where `instanceof` does not.
 */
export type ErrorCode =
  | 'VALIDATION_FAILED'
  | 'SETTING_ENV_PINNED'
  | 'URL_NOT_ALLOWED'
  | 'INVALID_JSON'
  | 'UNSUPPORTED_MEDIA_TYPE'
  | 'PAYLOAD_TOO_LARGE'
  | 'MEDIA_TOO_LARGE'
  | 'MEDIA_KEY_INVALID'
  | 'WEBHOOK_LIMIT'
  | 'AUTOMATION_RULE_LIMIT'
  | 'TEMPLATE_LIMIT'
  | 'TEMPLATE_VARIABLES_MISSING'
  | 'TEMPLATE_RENDER_TOO_LONG'
  | 'BATCH_ID_TAKEN'
  | 'BATCH_FINISHED'
  | 'SESSION_NOT_STARTED'
  | 'SESSION_ALREADY_STARTED'
  | 'SESSION_LIMIT_REACHED'
  | 'SESSION_NOT_READY'
  | 'QR_NOT_AVAILABLE'
  | 'ALREADY_AUTHENTICATED'
  | 'UNAUTHORIZED'
  | 'FORBIDDEN_ROLE'
  | 'FORBIDDEN_SESSION'
  | 'FORBIDDEN_IP'
  | 'FORBIDDEN_SCOPED_KEY'
  | 'FORBIDDEN_CHAT'
  | 'FORBIDDEN_CHAT_RESTRICTED'
  | 'GROUP_ADMIN_REQUIRED'
  | 'NOT_FOUND'
  | 'MESSAGE_NOT_FOUND'
  | 'MESSAGE_NOT_SHOWN'
  | 'MESSAGE_NOT_FORWARDABLE'
  | 'MESSAGE_NOT_EDITABLE'
  | 'MESSAGE_NOT_REVOCABLE'
  | 'MEDIA_NOT_FOUND'
  | 'STATUS_NOT_FOUND'
  | 'STATUS_NOT_OWN'
  | 'STATUS_MEDIA_NOT_FOUND'
  | 'MEDIA_FETCH_FAILED'
  | 'MEDIA_TYPE_NOT_ALLOWED'
  | 'ROUTE_NOT_FOUND'
  | 'METHOD_NOT_ALLOWED'
  | 'SESSION_NAME_EXISTS'
  | 'TEMPLATE_NAME_TAKEN'
  | 'SESSION_NAME_TEARDOWN_PENDING'
  | 'SESSION_OWNED_ELSEWHERE'
  | 'SESSION_OWNER_UNREACHABLE'
  | 'SESSION_BUSY'
  | 'LAST_ADMIN_KEY'
  | 'CONFLICT'
  | 'RATE_LIMITED'
  | 'SEND_PACING_LIMITED'
  | 'BATCH_LIMIT'
  | 'ENGINE_UNSUPPORTED'
  | 'SESSION_LOGOUT_INCOMPLETE'
  | 'SESSION_STOP_INCOMPLETE'
  | 'SESSION_FORCE_KILL_INCOMPLETE'
  | 'HOST_UNAVAILABLE'
  | 'HOST_AT_CAPACITY'
  | 'DEPENDENCY_UNAVAILABLE'
  | 'ENGINE_UNAVAILABLE'
  | 'SHUTTING_DOWN'
  | 'IDEMPOTENCY_KEY_INVALID'
  | 'IDEMPOTENCY_KEY_IN_PROGRESS'
  | 'IDEMPOTENCY_KEY_REUSED'
  | 'IMPORT_INVALID'
  | 'IMPORT_SESSIONS_RUNNING'
  | 'CREDENTIALS_UNAVAILABLE'
  | 'EXPORT_TOO_LARGE'
  | 'IMPORT_TOO_LARGE'
  | 'INTERNAL';

export type ErrorStatus =
  | 400
  | 401
  | 403
  | 404
  | 405
  | 409
  | 413
  | 415
  | 422
  | 429
  | 500
  | 501
  | 502
  | 503
  | 504;

export interface AppErrorOptions extends ErrorOptions {
  details?: unknown;
  retryable?: boolean;
  /** Extra response headers (e.g. Retry-After). */
  headers?: Record<string, string>;
  /**
   * Seconds before a retry can succeed, answered as the body's top-level `retryAfterSeconds` (where openwa's
   * clients read a pacing refusal's) besides the Retry-After header.
   */
  retryAfterSeconds?: number;
}

/** Base class: never thrown directly, always through a subclass that fixes the status. */
export abstract class AppError extends Error {
  abstract readonly status: ErrorStatus;
  readonly code: ErrorCode;
  readonly details: unknown;
  readonly retryable: boolean;
  readonly headers: Record<string, string>;
  readonly retryAfterSeconds: number | undefined;

  constructor(code: ErrorCode, message: string, options: AppErrorOptions = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = new.target.name;
    this.code = code;
    this.details = options.details;
    this.retryable = options.retryable ?? false;
    this.headers = options.headers ?? {};
    this.retryAfterSeconds = options.retryAfterSeconds;
  }
}

/** 400: the request is malformed or breaks a precondition of the resource's state. */
export class ValidationError extends AppError {
  readonly status = 400;
  constructor(message: string, options: AppErrorOptions & { code?: ErrorCode } = {}) {
    super(options.code ?? 'VALIDATION_FAILED', message, options);
  }
}

/** 400: the session's state does not allow the operation (not started, already started, not ready …). */
export class SessionStateError extends AppError {
  readonly status = 400;
}

/** 401: missing, unknown, revoked or expired API key. */
export class UnauthorizedError extends AppError {
  readonly status = 401;
  constructor(message = 'Invalid or missing API key', options: AppErrorOptions = {}) {
    super('UNAUTHORIZED', message, options);
  }
}

/** 403: a valid key that may not do this (role, session scope, IP allowlist). */
export class ForbiddenError extends AppError {
  readonly status = 403;
}

/** 404: the resource does not exist, or is outside what the caller may see. */
export class NotFoundError extends AppError {
  readonly status = 404;
  constructor(message: string, options: AppErrorOptions & { code?: ErrorCode } = {}) {
    super(options.code ?? 'NOT_FOUND', message, options);
  }
}

/** 405: the path exists but not with this method; `Allow` lists the methods it has (RFC 9110 §15.5.6). */
export class MethodNotAllowedError extends AppError {
  readonly status = 405;
  constructor(method: string, path: string, allowed: readonly string[]) {
    super('METHOD_NOT_ALLOWED', `Method ${method} is not allowed on ${path}`, {
      headers: { allow: allowed.join(', ') },
      details: { allowed },
    });
  }
}

/** 409: the change conflicts with current state (duplicates, teardown fences, ownership, last admin key). */
export class ConflictError extends AppError {
  readonly status = 409;
}

/** 413: the request body is larger than BODY_SIZE_LIMIT (or a route's own limit, with its own code). */
export class PayloadTooLargeError extends AppError {
  readonly status = 413;
  constructor(limit: number, code: ErrorCode = 'PAYLOAD_TOO_LARGE') {
    super(code, `Request body exceeds the ${limit}-byte limit`);
  }
}

/** 413: an answer larger than its transport carries (a buffered data export over the Lambda answer's cap). */
export class AnswerTooLargeError extends AppError {
  readonly status = 413;
}

/**
 * 413: media larger than MEDIA_DOWNLOAD_MAX_BYTES, refused by the media storage before any of it is kept. A host that
 * archives an incoming file logs it and stores the message without its media.
 */
export class MediaTooLargeError extends AppError {
  readonly status = 413;
  constructor(limit: number) {
    super('MEDIA_TOO_LARGE', `Media exceeds the ${limit}-byte limit`, { details: { maxBytes: limit } });
  }
}

/** 415: a body that is not JSON where JSON is required. */
export class UnsupportedMediaTypeError extends AppError {
  readonly status = 415;
  constructor(message = 'Content-Type must be application/json') {
    super('UNSUPPORTED_MEDIA_TYPE', message);
  }
}

/**
 * 422: a well-formed request that contradicts what it says it repeats (an Idempotency-Key first used with another
 * body: IDEMPOTENCY_KEY_REUSED).
 */
export class UnprocessableError extends AppError {
  readonly status = 422;
}

/** 429: too many requests (or too much running at once: BATCH_LIMIT); carries Retry-After. */
export class RateLimitedError extends AppError {
  readonly status = 429;
  constructor(
    retryAfterSeconds: number,
    reason: { code: 'RATE_LIMITED' | 'BATCH_LIMIT'; message: string } = {
      code: 'RATE_LIMITED',
      message: 'Too many requests',
    },
  ) {
    super(reason.code, reason.message, {
      retryable: true,
      headers: { 'retry-after': String(retryAfterSeconds) },
      details: { retryAfterSeconds },
    });
  }
}

/**
 * 429 SEND_PACING_LIMITED: send pacing refused the send (a daily allowance is spent, or the breaker is open after a
 * run of failed sends; openwa-facts §7.6). `retryAfterSeconds` (body, `details` and Retry-After) says when it lifts:
 * the next UTC day for an allowance, the rest of the cooldown for the breaker. Retrying sooner is refused again.
 */
export class SendPacingLimitedError extends AppError {
  readonly status = 429;
  constructor(message: string, retryAfterSeconds: number, details: Record<string, unknown>) {
    super('SEND_PACING_LIMITED', message, {
      retryable: true,
      retryAfterSeconds,
      headers: { 'retry-after': String(retryAfterSeconds) },
      details: { ...details, retryAfterSeconds },
    });
  }
}

/**
 * 501: the configured engine lacks the capability an operation needs (shared/domain/engine-capabilities.ts);
 * decided before the engine is called. `details` names both, so a client can tell which one.
 */
export class EngineUnsupportedError extends AppError {
  readonly status = 501;
  constructor(engine: string, capability: string, summary: string) {
    super('ENGINE_UNSUPPORTED', `The ${engine} engine cannot ${summary}`, {
      details: { engine, capability },
    });
  }
}

/** 502: an engine-side operation did not complete (logout, stop, force-kill). Retryable. */
export class IncompleteOperationError extends AppError {
  readonly status = 502;
  constructor(
    code: 'SESSION_LOGOUT_INCOMPLETE' | 'SESSION_STOP_INCOMPLETE' | 'SESSION_FORCE_KILL_INCOMPLETE',
    message: string,
    options: AppErrorOptions = {},
  ) {
    super(code, message, { ...options, retryable: true });
  }
}

/** 503: a dependency (store, host) is unavailable right now. */
export class UnavailableError extends AppError {
  readonly status = 503;
  constructor(
    code:
      | 'HOST_UNAVAILABLE'
      | 'HOST_AT_CAPACITY'
      | 'DEPENDENCY_UNAVAILABLE'
      | 'ENGINE_UNAVAILABLE'
      | 'SHUTTING_DOWN',
    message: string,
    options: AppErrorOptions = {},
  ) {
    super(code, message, { ...options, retryable: true });
  }
}

/** Serialisable form that crosses process boundaries (host RPC) and is rebuilt on the other side. */
export interface SerializedAppError {
  status: ErrorStatus;
  code: ErrorCode;
  message: string;
  retryable: boolean;
  details?: unknown;
}

class RemoteAppError extends AppError {
  readonly status: ErrorStatus;
  constructor(serialized: SerializedAppError) {
    super(serialized.code, serialized.message, {
      retryable: serialized.retryable,
      details: serialized.details,
    });
    this.status = serialized.status;
  }
}

export function serializeAppError(error: AppError): SerializedAppError {
  return {
    status: error.status,
    code: error.code,
    message: error.message,
    retryable: error.retryable,
    details: error.details,
  };
}

/** Rebuilds an error received from another process (the host RPC answer) with its original status and code. */
export function deserializeAppError(serialized: SerializedAppError): AppError {
  return new RemoteAppError(serialized);
}
