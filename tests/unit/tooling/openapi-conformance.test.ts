/**
 * The test client's validating proxy (tests/helpers/openapi-conformance.ts) against a small document: what it flags,
 * what it lets through, and which path template it picks.
 */
import { describe, expect, it } from '@jest/globals';
import {
  assertConforms,
  compileConformance,
  type OpenApiDocument,
} from '#tests/helpers/openapi-conformance.js';

const json = (schema: Record<string, unknown>) => ({ content: { 'application/json': { schema } } });
const ERROR = json({ $ref: '#/components/schemas/Error' });

const document: OpenApiDocument = {
  components: {
    schemas: {
      Error: { type: 'object', required: ['code'], properties: { code: { type: 'string' } } },
      Thing: {
        type: 'object',
        required: ['id', 'createdAt'],
        additionalProperties: false,
        properties: { id: { type: 'string' }, createdAt: { type: 'string', format: 'date-time' } },
      },
    },
  },
  paths: {
    '/api/things/{id}': {
      get: { responses: { 200: json({ $ref: '#/components/schemas/Thing' }), 404: ERROR } },
      delete: { responses: { 204: { description: 'No Content' } as never } },
    },
    '/api/things/search': {
      get: { responses: { 200: json({ type: 'array', items: { type: 'string' } }) } },
    },
  },
};
const { check } = compileConformance(document);
const JSON_TYPE = 'application/json; charset=utf-8';

describe('the OpenAPI conformance check', () => {
  it('passes an answer whose status and body match the document', () => {
    const thing = { id: 't1', createdAt: '2026-11-27T07:00:00.000Z' };
    expect(check('GET', '/api/things/t1?x=1', 200, JSON_TYPE, thing)).toEqual([]);
    expect(check('GET', '/api/things/t1', 404, JSON_TYPE, { code: 'NOT_FOUND' })).toEqual([]);
    expect(check('DELETE', '/api/things/t1', 204, null, null)).toEqual([]);
  });

  it('flags a body that breaks the schema: a missing field, an extra one, a bad format', () => {
    expect(check('GET', '/api/things/t1', 200, JSON_TYPE, { id: 't1' })).toEqual([
      expect.stringContaining("must have required property 'createdAt'"),
    ]);
    const extra = { id: 't1', createdAt: '2026-11-27T07:00:00.000Z', secret: 'x' };
    expect(check('GET', '/api/things/t1', 200, JSON_TYPE, extra)).toEqual([
      expect.stringContaining('must NOT have additional properties'),
    ]);
    expect(check('GET', '/api/things/t1', 200, JSON_TYPE, { id: 't1', createdAt: 'yesterday' })).toEqual([
      expect.stringContaining('must match format "date-time"'),
    ]);
  });

  it('flags a status the operation does not document, and a body or media type it does not', () => {
    expect(check('GET', '/api/things/t1', 500, JSON_TYPE, { code: 'INTERNAL' })).toEqual([
      expect.stringContaining('status not documented'),
    ]);
    expect(check('DELETE', '/api/things/t1', 204, JSON_TYPE, { ok: true })).toEqual([
      expect.stringContaining('a body where none is documented'),
    ]);
    expect(check('GET', '/api/things/t1', 200, 'text/html', '<p>')).toEqual([
      expect.stringContaining('content type text/html not documented'),
    ]);
  });

  it('prefers a literal path to a template; 404 or 400 answer an unknown path, 405 or 400 a known one', () => {
    expect(check('GET', '/api/things/search', 200, JSON_TYPE, ['a'])).toEqual([]);
    expect(check('GET', '/api/things/search', 200, JSON_TYPE, { id: 'search' })).toEqual([
      expect.stringContaining('GET /api/things/search 200: body must be array'),
    ]);
    expect(check('GET', '/api/nothing', 404, JSON_TYPE, { code: 'NOT_FOUND' })).toEqual([]);
    expect(check('GET', '/api/nothing%00', 400, JSON_TYPE, { code: 'VALIDATION_ERROR' })).toEqual([]);
    expect(check('GET', '/api/nothing', 200, JSON_TYPE, {})).toEqual([
      expect.stringContaining('undocumented path'),
    ]);
    expect(check('PATCH', '/api/things/t1', 405, JSON_TYPE, { code: 'METHOD_NOT_ALLOWED' })).toEqual([]);
    expect(check('PATCH', '/api/things/t1', 404, JSON_TYPE, { code: 'ROUTE_NOT_FOUND' })).toEqual([
      expect.stringContaining('undocumented method'),
    ]);
    expect(check('PATCH', '/api/things/t1', 200, JSON_TYPE, {})).toEqual([
      expect.stringContaining('undocumented method'),
    ]);
  });
});

describe('the served document as the test clients hold answers to it', () => {
  it('lets a documented answer through and throws at one it does not describe', () => {
    const error = {
      statusCode: 401,
      error: 'Unauthorized',
      message: 'API key required',
      code: 'UNAUTHORIZED',
    };
    expect(() => assertConforms('GET', '/api/sessions', 401, JSON_TYPE, error)).not.toThrow();
    expect(() => assertConforms('GET', '/api/sessions', 200, JSON_TYPE, [{ id: 'x' }])).toThrow(
      /GET \/api\/sessions 200: body\/0 must have required property/,
    );
    expect(() => assertConforms('GET', '/api/sessions', 500, JSON_TYPE, error)).toThrow(
      /status not documented/,
    );
  });
});
