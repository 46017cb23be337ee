/** API Gateway (HTTP API, payload 2.0) events for calling a resource handler directly, as Lambda would. */
import type { APIGatewayProxyEventV2 } from 'aws-lambda';

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

/** The query's parameters as API Gateway gives them: decoded, a repeated key's values joined with commas. */
function queryParameters(raw: string): Record<string, string> | undefined {
  const parameters: Record<string, string> = {};
  for (const [name, value] of new URLSearchParams(raw)) {
    parameters[name] = name in parameters ? `${parameters[name]},${value}` : value;
  }
  return Object.keys(parameters).length > 0 ? parameters : undefined;
}

/** The event of a request reaching a catch-all route (`$default`): the handler routes it by its path. */
export function lambdaEvent(request: LambdaRequest): APIGatewayProxyEventV2 {
  const now = request.now ?? new Date();
  const query = queryParameters(request.rawQueryString ?? '');
  return {
    version: '2.0',
    routeKey: '$default',
    rawPath: request.path,
    rawQueryString: request.rawQueryString ?? '',
    ...(query ? { queryStringParameters: query } : {}),
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
