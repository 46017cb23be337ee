/**
 * The MCP Lambda (aws mode): `POST /mcp` (and GET and DELETE, which it answers 405) behind API Gateway, the endpoint
 * the embedded gateway mounts. The function is deployed whatever MCP_ENABLED says, so without it the endpoint
 * answers the standard 404 of a route the API does not have, as the embedded gateway does. Only the configuration is
 * read before that choice: the endpoint's module (the MCP SDK, the functions' dependencies with their store clients,
 * the tools) is loaded on the first request of an instance with MCP_ENABLED, so a stack that keeps the endpoint off
 * builds none of it (tests/bench/lambda-bundles.mjs measures both).
 */
import type { APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2 } from 'aws-lambda';
import { errorResponse } from '#functions/http/error-response.js';
import { type Env, loadEnv } from '#shared/config/env.js';
import { NotFoundError } from '#shared/errors/app-error.js';
import { silentLogger } from '#shared/ports/logger.port.js';
import type { createMcpHandler } from './mcp-handler.js';

/** The configuration, once read; a bad one fails each request until it reads (as the dependencies do, deps.ts). */
let env: Env | undefined;
let mcp: Promise<ReturnType<typeof createMcpHandler>> | undefined;

export async function handler(event: APIGatewayProxyEventV2): Promise<APIGatewayProxyStructuredResultV2> {
  env ??= loadEnv();
  if (env.MCP_ENABLED) {
    mcp ??= import('./mcp-handler.js').then((module) => module.createMcpHandler());
    return (await mcp)(event);
  }
  const { method } = event.requestContext.http;
  const absent = new NotFoundError(`Route ${method} ${event.rawPath} not found`, { code: 'ROUTE_NOT_FOUND' });
  // A 4xx is never logged (errorResponse logs failures of the gateway only), so no logger is built for it.
  return errorResponse(absent, silentLogger);
}
