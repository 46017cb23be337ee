/**
 * /api/openapi.json is an OpenAPI 3.1.0 document with every route of every resource handler (compared with the
 * route arrays themselves) and resolvable component references; /api/docs is an HTML page listing the routes.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { auditRoutes } from '#functions/audit/routes.js';
import { authRoutes } from '#functions/auth/routes.js';
import { automationRoutes } from '#functions/automation/routes.js';
import { chatRoutes } from '#functions/chats/routes.js';
import { contactRoutes } from '#functions/contacts/routes.js';
import { groupRoutes } from '#functions/groups/routes.js';
import { healthRoutes } from '#functions/health/routes.js';
import type { AnyRoute } from '#functions/http/route.js';
import { infraRoutes } from '#functions/infra/routes.js';
import { labelRoutes } from '#functions/labels/routes.js';
import { messageRoutes } from '#functions/messages/routes.js';
import { sessionRoutes } from '#functions/sessions/routes.js';
import { statsRoutes } from '#functions/stats/routes.js';
import { statusRoutes } from '#functions/statuses/routes.js';
import { templateRoutes } from '#functions/templates/routes.js';
import { webhookRoutes } from '#functions/webhooks/routes.js';
import { startTestGateway, type TestGateway } from '#tests/helpers/test-gateway.js';

type Operation = {
  summary?: string;
  tags?: string[];
  operationId?: string;
  parameters?: { name: string; in: string; required?: boolean }[];
  requestBody?: unknown;
  responses: Record<string, { content?: Record<string, unknown> }>;
  security?: unknown[];
  'x-required-role'?: string;
  'x-unscoped-key-only'?: boolean;
};
type Document = {
  openapi: string;
  info: { title: string; version: string };
  paths: Record<string, Record<string, Operation>>;
  components: { schemas: Record<string, unknown>; securitySchemes: Record<string, unknown> };
};

const ROUTES: AnyRoute[] = [
  ...sessionRoutes,
  ...messageRoutes,
  ...contactRoutes,
  ...chatRoutes,
  ...groupRoutes,
  ...labelRoutes,
  ...statusRoutes,
  ...webhookRoutes,
  ...automationRoutes,
  ...templateRoutes,
  ...authRoutes,
  ...auditRoutes,
  ...statsRoutes,
  ...infraRoutes,
  ...healthRoutes,
];
const DOC_ROUTES = [
  ['GET', '/api/openapi.json'],
  ['GET', '/api/docs'],
];

/** Every `$ref` string anywhere in the document. */
function refsOf(value: unknown, found: string[] = []): string[] {
  if (Array.isArray(value)) for (const item of value) refsOf(item, found);
  else if (value !== null && typeof value === 'object') {
    for (const [key, inner] of Object.entries(value)) {
      if (key === '$ref' && typeof inner === 'string') found.push(inner);
      else refsOf(inner, found);
    }
  }
  return found;
}

describe('API documentation', () => {
  let gw: TestGateway;
  let doc: Document;

  beforeAll(async () => {
    gw = await startTestGateway();
    const res = await gw.request<Document>('GET', '/api/openapi.json', { key: null });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^application\/json/);
    doc = res.body;
  });
  afterAll(async () => {
    await gw.close();
  });

  it('is OpenAPI 3.1.0 with the running version, both key schemes and the Error schema', async () => {
    expect(doc.openapi).toBe('3.1.0');
    expect(doc.info.version).toBe((await gw.request('GET', '/api/health')).body.version);
    expect(Object.keys(doc.components.securitySchemes).sort()).toEqual(['apiKey', 'bearer']);
    expect(doc.components.securitySchemes.apiKey).toMatchObject({
      type: 'apiKey',
      in: 'header',
      name: 'X-API-Key',
    });
    expect(doc.components.schemas.Error).toMatchObject({
      required: ['statusCode', 'error', 'message', 'code'],
    });
  });

  it('documents exactly the routes of the resource handlers (plus the docs routes)', () => {
    const documented = Object.entries(doc.paths)
      .flatMap(([path, methods]) => Object.keys(methods).map((m) => `${m.toUpperCase()} ${path}`))
      .sort();
    const expected = [
      ...ROUTES.map((r) => `${r.method} ${r.path}`),
      ...DOC_ROUTES.map(([m, p]) => `${m} ${p}`),
    ].sort();
    expect(documented).toEqual(expected);
    expect(ROUTES.length).toBeGreaterThanOrEqual(20);
  });

  it.each(ROUTES.map((route) => [`${route.method} ${route.path}`, route] as const))(
    '%s: success status, role, path parameters and body',
    (_label, route) => {
      const op = doc.paths[route.path]?.[route.method.toLowerCase()];
      expect(op).toBeDefined();
      if (!op) return;
      expect(op.summary).toBe(route.summary);
      expect(op.tags).toEqual([route.tag]);
      expect(Object.keys(op.responses)).toContain(String(route.success));
      for (const status of route.errors ?? []) expect(Object.keys(op.responses)).toContain(String(status));
      if (route.auth === 'public') {
        expect(op.security).toEqual([]);
      } else {
        expect(op['x-required-role']).toBe(route.auth.role);
        expect(Object.keys(op.responses)).toEqual(expect.arrayContaining(['401', '403']));
        expect(Boolean(op['x-unscoped-key-only'])).toBe(route.auth.unscoped ?? false);
      }
      const pathParams = [...route.path.matchAll(/\{(\w+)\}/g)].map((m) => m[1]);
      const documentedParams = (op.parameters ?? []).filter((p) => p.in === 'path');
      expect(documentedParams.map((p) => p.name).sort()).toEqual(pathParams.sort());
      expect(documentedParams.every((p) => p.required)).toBe(true);
      expect(Boolean(op.requestBody)).toBe(route.body !== undefined);
    },
  );

  it('names the Session and ApiKey components and uses them in the responses', () => {
    for (const name of ['Session', 'ApiKey', 'CreatedApiKey', 'AuditPage', 'AuditEntry']) {
      expect(doc.components.schemas).toHaveProperty(name);
    }
    expect(doc.components.schemas.Session).toMatchObject({
      type: 'object',
      properties: expect.objectContaining({
        id: expect.anything(),
        name: expect.anything(),
        status: expect.anything(),
      }),
    });
    const session = doc.components.schemas.Session as { properties: Record<string, unknown> };
    for (const hidden of ['config', 'proxyUrl', 'nodeId'])
      expect(session.properties).not.toHaveProperty(hidden);
    const apiKey = doc.components.schemas.ApiKey as { properties: Record<string, unknown> };
    expect(apiKey.properties).toHaveProperty('keyPrefix');
    expect(apiKey.properties).not.toHaveProperty('keyHash');
    expect(apiKey.properties).not.toHaveProperty('apiKey');
    const getKey = doc.paths['/api/auth/api-keys/{id}']?.get?.responses['200'];
    expect(JSON.stringify(getKey)).toContain('#/components/schemas/ApiKey');
    const getSession = doc.paths['/api/sessions/{id}']?.get?.responses['200'];
    expect(JSON.stringify(getSession)).toContain('#/components/schemas/Session');
  });

  it('every $ref resolves to a component that is a schema, not a reference to itself', () => {
    const refs = refsOf(doc);
    expect(refs.length).toBeGreaterThan(0);
    for (const ref of new Set(refs)) {
      expect(ref).toMatch(/^#\/components\/schemas\//);
      expect(doc.components.schemas).toHaveProperty(ref.slice('#/components/schemas/'.length));
    }
    for (const [name, schema] of Object.entries(doc.components.schemas)) {
      expect([name, (schema as { $ref?: string }).$ref]).toEqual([name, undefined]);
      expect([name, Object.keys(schema as object).length > 0]).toEqual([name, true]);
    }
  });

  it('describes the 405 of a path asked with another method, with its Allow header', () => {
    const responses = (doc.components as { responses?: Record<string, { headers?: object }> }).responses;
    expect(responses?.MethodNotAllowed?.headers).toHaveProperty('Allow');
    expect((doc.info as { description?: string }).description).toContain(
      '#/components/responses/MethodNotAllowed',
    );
  });

  it('operation ids are unique', () => {
    const ids = Object.values(doc.paths).flatMap((methods) =>
      Object.values(methods).map((op) => op.operationId),
    );
    expect(new Set(ids).size).toBe(ids.length);
  });

  it('GET /api/docs is a self-contained HTML page listing every route', async () => {
    const res = await gw.request('GET', '/api/docs', { key: null });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/html/);
    expect(res.headers.get('content-security-policy')).toContain("default-src 'none'");
    expect(res.text).toMatch(/^<!doctype html>/i);
    expect(res.text).not.toMatch(/<script/i);
    for (const route of ROUTES) {
      expect(res.text).toContain(`<code>${route.path}</code>`);
      expect(res.text).toContain(route.summary.replaceAll('<', '&lt;').replaceAll('>', '&gt;'));
    }
    expect(res.text).toContain('/api/openapi.json');
  });
});
