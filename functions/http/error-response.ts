/**
 * The one mapping from errors to HTTP responses. AppErrors keep their status, code and safe message; anything
 * else is an internal error whose body says nothing about its cause (the log has it, with the request id).
 */
import { STATUS_CODES } from 'node:http';
import type { APIGatewayProxyStructuredResultV2 } from 'aws-lambda';
import { AppError } from '#shared/errors/app-error.js';
import type { Logger } from '#shared/ports/logger.port.js';

export interface ErrorBody {
  statusCode: number;
  error: string;
  message: string;
  code: string;
  retryable?: boolean;
  /** When a retry can succeed (a send pacing refusal), as openwa answers it. */
  retryAfterSeconds?: number;
  details?: unknown;
}

export function jsonResponse(
  statusCode: number,
  body: unknown,
  headers: Record<string, string> = {},
): APIGatewayProxyStructuredResultV2 {
  return {
    statusCode,
    headers: { 'content-type': 'application/json; charset=utf-8', ...headers },
    body: JSON.stringify(body),
  };
}

export function errorResponse(error: unknown, logger: Logger): APIGatewayProxyStructuredResultV2 {
  if (error instanceof AppError) {
    const body: ErrorBody = {
      statusCode: error.status,
      error: STATUS_CODES[error.status] ?? 'Error',
      message: error.message,
      code: error.code,
      ...(error.retryable ? { retryable: true } : {}),
      ...(error.retryAfterSeconds === undefined ? {} : { retryAfterSeconds: error.retryAfterSeconds }),
      ...(error.details === undefined ? {} : { details: error.details }),
    };
    // 501 is a documented answer (the configured engine lacks a capability), not a failure of the gateway.
    if (error.status >= 500 && error.status !== 501)
      logger.error({ err: error, code: error.code }, error.message);
    return jsonResponse(error.status, body, error.headers);
  }
  logger.error({ err: error }, 'unhandled error');
  const body: ErrorBody = {
    statusCode: 500,
    error: 'Internal Server Error',
    message: 'Internal error',
    code: 'INTERNAL',
  };
  return jsonResponse(500, body);
}
