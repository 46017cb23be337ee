/**
 * Turns the raw parts of an API Gateway v2 event into validated input: body size, JSON, NUL bytes, percent
 * decoding, then the route's zod schemas. Every failure is a 4xx AppError with a code; nothing here throws
 * anything else.
 */
import type { APIGatewayProxyEventV2 } from 'aws-lambda';
import type { z } from 'zod';
import { IdempotencyKey } from '#shared/domain/idempotency-key.js';
import {
  PayloadTooLargeError,
  UnsupportedMediaTypeError,
  ValidationError,
} from '#shared/errors/app-error.js';
import { closestIssues } from '#shared/errors/validation-issues.js';

/** Deeper bodies are refused: no route needs them, and every later step (validation, storage) recurses. */
const MAX_BODY_DEPTH = 64;

/**
 * Refuses NUL characters in any key or string, and nesting deeper than MAX_BODY_DEPTH. Iterative, so a hostile
 * body nested thousands of levels deep is a 400 rather than a stack overflow. Checked on every route call's body
 * (route-call.ts), whichever transport parsed it.
 */
export function assertSafeBody(value: unknown): void {
  const pending: [unknown, number][] = [[value, 1]];
  for (let next = pending.pop(); next !== undefined; next = pending.pop()) {
    const [current, depth] = next;
    if (typeof current === 'string') {
      if (current.includes('\u0000'))
        throw new ValidationError('Request body must not contain NUL characters');
      continue;
    }
    if (current === null || typeof current !== 'object') continue;
    if (depth > MAX_BODY_DEPTH) {
      throw new ValidationError(`Request body must not be nested more than ${MAX_BODY_DEPTH} levels deep`);
    }
    if (Array.isArray(current)) {
      for (const item of current) pending.push([item, depth + 1]);
      continue;
    }
    for (const [key, inner] of Object.entries(current)) {
      if (key.includes('\u0000')) throw new ValidationError('Request body must not contain NUL characters');
      pending.push([inner, depth + 1]);
    }
  }
}

/** The request body as text, refusing bodies over `limit` bytes (413). */
export function readBody(event: APIGatewayProxyEventV2, limit: number): string | undefined {
  if (event.body === undefined || event.body === null || event.body === '') return undefined;
  const text = event.isBase64Encoded ? Buffer.from(event.body, 'base64').toString('utf8') : event.body;
  if (Buffer.byteLength(text, 'utf8') > limit) throw new PayloadTooLargeError(limit);
  return text;
}

/** 415 unless the declared media type (when there is one) is JSON. */
export function assertJsonMediaType(contentType: string | undefined): void {
  if (contentType && !/^application\/([\w.+-]*\+)?json\b/i.test(contentType.trim())) {
    throw new UnsupportedMediaTypeError();
  }
}

/** Parses a JSON body; absent body → undefined. Wrong media type 415; bad JSON 400. */
export function parseJsonBody(text: string | undefined, contentType: string | undefined): unknown {
  if (text === undefined || text.trim() === '') return undefined;
  assertJsonMediaType(contentType);
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw new ValidationError('Request body is not valid JSON', { code: 'INVALID_JSON' });
  }
  return value;
}

/** Percent-decodes path parameters; malformed escapes and NUL bytes are 400. */
export function decodePathParameters(
  raw: Record<string, string | undefined> | undefined,
): Record<string, string> {
  const decoded: Record<string, string> = {};
  for (const [key, value] of Object.entries(raw ?? {})) {
    if (value === undefined) continue;
    let text = value;
    // Most ids carry no escape: skip the decoder (and its try/catch) for them.
    if (value.includes('%')) {
      try {
        text = decodeURIComponent(value);
      } catch {
        throw new ValidationError(`Path parameter '${key}' is not valid percent-encoding`);
      }
    }
    if (text.includes('\u0000')) throw new ValidationError('Path must not contain NUL characters');
    decoded[key] = text;
  }
  return decoded;
}

/** Query parameters; repeated keys arrive comma-joined from API Gateway and are refused by the schemas. */
export function readQuery(event: APIGatewayProxyEventV2): Record<string, string> {
  if (event.rawQueryString?.toLowerCase().includes('%00')) {
    throw new ValidationError('Query must not contain NUL characters');
  }
  const query: Record<string, string> = {};
  for (const [key, value] of Object.entries(event.queryStringParameters ?? {})) {
    if (value === undefined) continue;
    if (value.includes('\u0000')) throw new ValidationError('Query must not contain NUL characters');
    query[key] = value;
  }
  return query;
}

/**
 * The query of a route that reads one, refusing an empty value (`?offset=`, `?limit`) on every parameter alike
 * rather than reading it as whatever a schema makes of '' (a number schema coerces it to 0, a string one sees ''):
 * the OpenAPI document says so on each parameter. A route without a query schema ignores its query.
 */
export function withoutEmptyValues(query: Record<string, string>): Record<string, string> {
  const empty = Object.keys(query).filter((key) => query[key] === '');
  if (empty.length === 0) return query;
  throw invalid(
    'query',
    empty.map((key) => ({ path: `query.${key}`, message: 'must not be empty' })),
  );
}

/** The `Idempotency-Key` header, if sent; one that is not 1–255 visible ASCII characters is 400. */
export function readIdempotencyKey(headers: APIGatewayProxyEventV2['headers']): string | undefined {
  const value = headers['idempotency-key'];
  if (value === undefined) return undefined;
  const parsed = IdempotencyKey.safeParse(value);
  if (parsed.success) return parsed.data;
  throw new ValidationError('Idempotency-Key must be 1-255 visible ASCII characters (0x21-0x7E)', {
    code: 'IDEMPOTENCY_KEY_INVALID',
    details: [{ path: 'header.idempotency-key', message: parsed.error.issues[0]?.message ?? 'invalid' }],
  });
}

/**
 * Validates one input part against its schema; failures list every issue with its path (an input that fits none of
 * a union's shapes is reported by the shape it came closest to: validation-issues.ts).
 */
export function parseInput<S extends z.ZodType>(
  schema: S,
  value: unknown,
  part: 'body' | 'path' | 'query',
): z.output<S> {
  // Each issue keeps its input (which tells a missing field from a wrong one); nothing is added when the input fits.
  const result = schema.safeParse(value, { reportInput: true });
  if (result.success) return result.data;
  const details = closestIssues(result.error.issues).map((issue) => ({
    path: [part, ...issue.path.map(String)].join('.'),
    message: issue.message,
  }));
  throw invalid(part, details);
}

/** The 400 of an input part, its message summing up the details. */
function invalid(part: string, details: { path: string; message: string }[]): ValidationError {
  const summary = details.map((d) => `${d.path}: ${d.message}`).join('; ');
  return new ValidationError(`Invalid request ${part}: ${summary}`, { details });
}

/**
 * The body of a route that takes one: a route with a body schema needs a JSON body, so none at all, only white
 * space or JSON `null` is refused here, once for every such route (a PUT would otherwise read it as `{}`, an update
 * of nothing). A route without a body schema takes none, `null` or `{}`.
 */
export function requireBody(value: unknown): unknown {
  if (value !== undefined && value !== null) return value;
  throw new ValidationError('Request body is required: a JSON object', {
    details: [{ path: 'body', message: 'required: a JSON object' }],
  });
}
