/**
 * The resource groups: one Lambda each, with the path prefixes API Gateway routes to it. The embedded local gateway
 * dispatches with this same table, so both deployment modes route identically.
 */
import type { APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2, Context } from 'aws-lambda';
import { handler as auditHandler } from './audit/handler.js';
import { handler as authHandler } from './auth/handler.js';
import { handler as docsHandler } from './docs/handler.js';
import { handler as healthHandler } from './health/handler.js';
import { createResourceHandler } from './http/http-handler.js';
import { handler as messagesHandler } from './messages/handler.js';
import { handler as sessionsHandler } from './sessions/handler.js';

export type HttpHandler = (
  event: APIGatewayProxyEventV2,
  context: Context,
) => Promise<APIGatewayProxyStructuredResultV2>;

export interface Resource {
  name: string;
  /** Paths equal to a prefix or below it belong to this resource (first match wins). */
  prefixes: readonly (string | RegExp)[];
  handler: HttpHandler;
}

export const resources: readonly Resource[] = [
  { name: 'messages', prefixes: [/^\/api\/sessions\/[^/]+\/messages(\/|$)/], handler: messagesHandler },
  { name: 'sessions', prefixes: ['/api/sessions'], handler: sessionsHandler },
  { name: 'auth', prefixes: ['/api/auth'], handler: authHandler },
  { name: 'audit', prefixes: ['/api/audit'], handler: auditHandler },
  { name: 'health', prefixes: ['/api/health', '/api/metrics'], handler: healthHandler },
  { name: 'docs', prefixes: ['/api/openapi.json', '/api/docs'], handler: docsHandler },
];

/** Answers every path no resource claims with the standard 404 error body. */
export const notFoundHandler: HttpHandler = createResourceHandler([]);

export function resourceFor(path: string): HttpHandler {
  for (const resource of resources) {
    const claims = (prefix: string | RegExp) =>
      typeof prefix === 'string' ? path === prefix || path.startsWith(`${prefix}/`) : prefix.test(path);
    if (resource.prefixes.some(claims)) return resource.handler;
  }
  return notFoundHandler;
}
