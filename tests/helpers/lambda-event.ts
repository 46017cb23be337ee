/** API Gateway (HTTP API, payload 2.0) events for calling a resource handler directly, as Lambda would. */
import type { APIGatewayProxyEventV2 } from 'aws-lambda';
import { parseQuery } from '#embedded/local-gateway.js';

export interface LambdaRequest {
  method: string;
  /** The path as requested, without the query string. */
  path: string;
  rawQueryString?: string;
  /** The API key, sent as `X-API-Key`. */
  key?: string;
  /** Sent as JSON when given. */
  body?: unknown;
  now?: Date;
}

/** The event of a request reaching a catch-all route (`$default`): the handler routes it by its path. */
export function lambdaEvent(request: LambdaRequest): APIGatewayProxyEventV2 {
  const now = request.now ?? new Date();
  const rawQueryString = request.rawQueryString ?? '';
  return {
    version: '2.0',
    routeKey: '$default',
    rawPath: request.path,
    rawQueryString,
    ...(rawQueryString ? { queryStringParameters: parseQuery(rawQueryString) } : {}),
    headers: {
      ...(request.key === undefined ? {} : { 'x-api-key': request.key }),
      'content-type': 'application/json',
    },
    requestContext: {
      accountId: 'test',
      apiId: 'test',
      domainName: 'localhost',
      domainPrefix: 'localhost',
      http: {
        method: request.method,
        path: request.path,
        protocol: 'HTTP/1.1',
        sourceIp: '10.0.0.9',
        userAgent: 't',
      },
      requestId: `r-${Math.random()}`,
      routeKey: '$default',
      stage: '$default',
      time: now.toUTCString(),
      timeEpoch: now.getTime(),
    },
    ...(request.body === undefined ? {} : { body: JSON.stringify(request.body) }),
    isBase64Encoded: false,
  };
}
