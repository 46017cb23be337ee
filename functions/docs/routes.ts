/**
 * The docs resource group: the OpenAPI document and its human page, generated once per process (and version) from
 * the routes the manifest lists. The list comes in as a function so that this module does not import the manifest
 * that lists it.
 */
import { type AnyRoute, defineRoute, RawResponse } from '#functions/http/route.js';
import { renderDocsPage } from './docs-page.js';
import { buildOpenApiDocument } from './openapi.js';

/** The docs routes of an API whose routes (these included) `allRoutes` returns. */
export function createDocsRoutes(allRoutes: () => readonly AnyRoute[]): readonly AnyRoute[] {
  let cached: { version: string; json: string; html: string } | undefined;
  const documents = (version: string) => {
    if (cached?.version !== version) {
      const document = buildOpenApiDocument(allRoutes(), version);
      cached = {
        version,
        json: JSON.stringify(document),
        html: renderDocsPage(document as unknown as Parameters<typeof renderDocsPage>[0]),
      };
    }
    return cached;
  };

  const openApiRoute = defineRoute({
    method: 'GET',
    path: '/api/openapi.json',
    summary: 'OpenAPI 3.1 document',
    tag: 'Docs',
    auth: 'public',
    binaryResponse: { mediaType: 'application/json', description: 'This document', headers: {} },
    success: 200,
    run: async ({ deps }) =>
      new RawResponse(200, documents(deps.version).json, {
        'content-type': 'application/json; charset=utf-8',
      }),
  });

  const docsPageRoute = defineRoute({
    method: 'GET',
    path: '/api/docs',
    summary: 'API reference page',
    tag: 'Docs',
    auth: 'public',
    binaryResponse: {
      mediaType: 'text/html',
      description: 'The routes of this document as a page',
      headers: { 'Content-Security-Policy': "`default-src 'none'; style-src 'unsafe-inline'`" },
    },
    success: 200,
    run: async ({ deps }) =>
      new RawResponse(200, documents(deps.version).html, {
        'content-type': 'text/html; charset=utf-8',
        'content-security-policy': "default-src 'none'; style-src 'unsafe-inline'",
      }),
  });

  return [openApiRoute, docsPageRoute];
}
