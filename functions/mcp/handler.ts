/**
 * The MCP Lambda (aws mode): `POST /mcp` (and GET and DELETE, which it answers 405) behind API Gateway, the endpoint
 * the embedded gateway mounts. The function is deployed whatever MCP_ENABLED says, so without it the endpoint
 * answers the standard 404 of a route the API does not have, as the embedded gateway does.
 */
import type { APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2 } from 'aws-lambda';
import { depsReady, getDeps } from '#functions/deps.js';
import { errorResponse } from '#functions/http/error-response.js';
import { NotFoundError } from '#shared/errors/app-error.js';
import { createMcpHandler } from './mcp-handler.js';

const mcp = createMcpHandler();

export async function handler(event: APIGatewayProxyEventV2): Promise<APIGatewayProxyStructuredResultV2> {
  await depsReady();
  const deps = getDeps();
  if (deps.env.MCP_ENABLED) return mcp(event);
  const { method } = event.requestContext.http;
  const absent = new NotFoundError(`Route ${method} ${event.rawPath} not found`, { code: 'ROUTE_NOT_FOUND' });
  return errorResponse(absent, deps.logger);
}
