/** The docs Lambda: the OpenAPI document and its human page, built once per process from every route module. */
import { auditRoutes } from '#functions/audit/handler.js';
import { authRoutes } from '#functions/auth/handler.js';
import { healthRoutes } from '#functions/health/handler.js';
import { createResourceHandler } from '#functions/http/http-handler.js';
import { type AnyRoute, defineRoute, RawResponse } from '#functions/http/route.js';
import { messageRoutes } from '#functions/messages/handler.js';
import { sessionRoutes } from '#functions/sessions/handler.js';
import { renderDocsPage } from './docs-page.js';
import { buildOpenApiDocument } from './openapi.js';

let cached: { version: string; json: string; html: string } | undefined;

function documents(version: string) {
  if (cached?.version !== version) {
    const routes: AnyRoute[] = [
      ...sessionRoutes,
      ...messageRoutes,
      ...authRoutes,
      ...auditRoutes,
      ...healthRoutes,
      ...docsRoutes,
    ];
    const document = buildOpenApiDocument(routes, version);
    cached = {
      version,
      json: JSON.stringify(document),
      html: renderDocsPage(document as unknown as Parameters<typeof renderDocsPage>[0]),
    };
  }
  return cached;
}

const openApiRoute = defineRoute({
  method: 'GET',
  path: '/api/openapi.json',
  summary: 'OpenAPI 3.1 document',
  tag: 'Docs',
  auth: 'public',
  success: 200,
  run: async ({ deps }) =>
    new RawResponse(200, documents(deps.version).json, { 'content-type': 'application/json; charset=utf-8' }),
});

const docsPageRoute = defineRoute({
  method: 'GET',
  path: '/api/docs',
  summary: 'API reference page',
  tag: 'Docs',
  auth: 'public',
  success: 200,
  run: async ({ deps }) =>
    new RawResponse(200, documents(deps.version).html, {
      'content-type': 'text/html; charset=utf-8',
      'content-security-policy': "default-src 'none'; style-src 'unsafe-inline'",
    }),
});

const docsRoutes: AnyRoute[] = [openApiRoute, docsPageRoute];

export const handler = createResourceHandler(docsRoutes);
