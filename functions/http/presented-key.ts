/**
 * The credentials a request presents, read the same way by the REST handler and the MCP endpoint; a module of its
 * own, so the MCP endpoint reads a key without loading the REST request stack.
 */
import type { APIGatewayProxyEventV2 } from 'aws-lambda';

type Headers = APIGatewayProxyEventV2['headers'];

/** The `Authorization: Bearer …` token, if the request presented one. */
export function bearerOf(headers: Headers): string | undefined {
  const authorization = headers.authorization;
  const match = authorization ? /^Bearer\s+(\S+)\s*$/i.exec(authorization) : null;
  return match?.[1];
}

/** The API key the request presented: `X-API-Key`, else a bearer token (the MCP endpoint reads it so too). */
export function presentedKey(headers: Headers): string | undefined {
  return headers['x-api-key']?.trim() || bearerOf(headers);
}
