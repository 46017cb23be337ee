/**
 * The OpenAPI 3.1 document, generated from the route modules' zod schemas (zod's own JSON Schema output, which is
 * the dialect OpenAPI 3.1 uses). Schemas that carry a `.meta({ id })` become named components.
 */
import { STATUS_CODES } from 'node:http';
import { z } from 'zod';
import type { AnyRoute, BinaryResponse } from '#functions/http/route.js';
import { capabilityRow, type EngineCapability, enginesLacking } from '#shared/domain/engine-capabilities.js';
import { IdempotencyKey } from '#shared/domain/idempotency-key.js';
import { RequestRules } from './request-rules.js';

type JsonSchema = Record<string, unknown>;

const ErrorSchema: JsonSchema = {
  type: 'object',
  required: ['statusCode', 'error', 'message', 'code'],
  properties: {
    statusCode: { type: 'integer' },
    error: { type: 'string' },
    message: { type: 'string' },
    code: { type: 'string' },
    retryable: { type: 'boolean' },
    retryAfterSeconds: { type: 'integer', description: 'When a retry can succeed (SEND_PACING_LIMITED)' },
    details: {},
  },
};

/**
 * What any route may answer besides its own errors: a body over BODY_SIZE_LIMIT (413) or not JSON (415) is refused
 * before routing, whatever the route; an authenticated route reads the key store, which may be unavailable (503).
 */
const COMMON_ERRORS: Record<string, number[]> = {
  authenticated: [400, 401, 403, 413, 415, 429, 503],
  public: [400, 413, 415, 429],
};

const ERROR_CONTENT = { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } };

/**
 * The 501 of a route that needs `capability`, naming the engine kinds without it (from the capability table), or
 * null when every kind has it (nothing can answer 501 then).
 */
export function engineUnsupportedResponse(capability: EngineCapability): JsonSchema | null {
  const lacking = enginesLacking(capability);
  if (lacking.length === 0) return null;
  const kinds = lacking.length === 1 ? `the ${lacking[0]} engine` : `the ${lacking.join(', ')} engines`;
  return {
    description: `ENGINE_UNSUPPORTED: ${kinds} cannot ${capabilityRow(capability).summary}`,
    content: ERROR_CONTENT,
  };
}

/** What an `idempotent` route adds to its operation: the header, its answers, the replay marker. */
const IDEMPOTENCY = {
  errors: {
    409: 'IDEMPOTENCY_KEY_IN_PROGRESS (retryable): a request with this Idempotency-Key is still being handled',
    422: 'IDEMPOTENCY_KEY_REUSED: this Idempotency-Key was used with a different request body',
  },
  replayedHeader: {
    'Idempotent-Replayed': {
      description:
        'Present (`true`) when the answer replays an earlier request with the same Idempotency-Key',
      schema: { type: 'string', enum: ['true'] },
    },
  },
} as const;

/** The 429 of a send that send pacing may refuse, besides the REST rate limit's. */
const PACED_429: JsonSchema = {
  description:
    'RATE_LIMITED: the REST rate limit; or SEND_PACING_LIMITED (with SEND_PACING_ENABLED): the session spent a ' +
    'daily allowance (all sends, or sends to chats without history) or its send breaker is open after consecutive ' +
    'failed sends; `retryAfterSeconds` and Retry-After say when it lifts (the next UTC day, or the end of the cooldown)',
  headers: {
    'Retry-After': { description: 'Seconds before a retry can succeed', schema: { type: 'integer' } },
  },
  content: ERROR_CONTENT,
};

/**
 * A path the document describes, asked with a method it does not list: no operation can hold this answer, so it is
 * a named response the document's description points to.
 */
const METHOD_NOT_ALLOWED: JsonSchema = {
  description:
    'METHOD_NOT_ALLOWED: the path exists, but not with this method; `Allow` lists the methods it has. A path that ' +
    'does not exist is 404 ROUTE_NOT_FOUND.',
  headers: {
    Allow: { description: 'The methods of the path, comma-separated', schema: { type: 'string' } },
  },
  content: ERROR_CONTENT,
};

const DESCRIPTION = [
  'Self-hosted WhatsApp gateway. Authenticate with `X-API-Key: wg_…` or `Authorization: Bearer wg_…`.',
  'Every operation that takes a body requires one: none, white space only or JSON `null` is 400 VALIDATION_FAILED. ' +
    'No string or key of a body, path or query may hold a NUL character, and no query parameter an operation ' +
    'lists may be given empty (`?offset=` is 400 like `?limit=`).',
  'A path asked with a method it does not have is 405 METHOD_NOT_ALLOWED with `Allow` ' +
    '(`#/components/responses/MethodNotAllowed`).',
].join('\n\n');

/** The schema of a raw body: any JSON object, text, or bytes. */
function rawBodySchema(mediaType: string): JsonSchema {
  if (mediaType === 'application/json') return { type: 'object' };
  return mediaType.startsWith('text/') ? { type: 'string' } : { type: 'string', format: 'binary' };
}

/** A raw success answer: its media type, and the headers it always carries. */
function binarySuccess(binary: BinaryResponse): JsonSchema {
  return {
    description: binary.description,
    headers: Object.fromEntries(
      Object.entries(binary.headers).map(([name, description]) => [
        name,
        { description, schema: { type: 'string' } },
      ]),
    ),
    content: { [binary.mediaType]: { schema: rawBodySchema(binary.mediaType) } },
  };
}

/** A 302 to where the file is served from instead (no body). */
function redirectResponse(description: string): JsonSchema {
  return {
    description,
    headers: {
      Location: { description: 'Where to fetch the file', schema: { type: 'string', format: 'uri' } },
      'Cache-Control': { description: '`no-store`: the URL expires', schema: { type: 'string' } },
    },
  };
}

export function buildOpenApiDocument(routes: readonly AnyRoute[], version: string): JsonSchema {
  const components: Record<string, JsonSchema> = { Error: ErrorSchema };
  const convert = (schema: z.ZodType, io: 'input' | 'output'): JsonSchema => {
    // Named sub-schemas land in $defs; in the OpenAPI document they live under components.
    const raw = JSON.stringify(z.toJSONSchema(schema, { io, unrepresentable: 'any' }));
    const json = JSON.parse(raw.replaceAll('"#/$defs/', '"#/components/schemas/')) as JsonSchema & {
      $defs?: Record<string, JsonSchema>;
      $schema?: string;
    };
    const { $defs, $schema: _dialect, ...rest } = json;
    Object.assign(components, $defs ?? {});
    const id = schema.meta()?.id;
    if (typeof id === 'string') {
      // zod emits a named root schema as a $def plus a root `$ref` to it: the $def is the component. Storing the
      // root as well would overwrite the component with a reference to itself.
      if (!$defs?.[id]) components[id] = rest;
      return { $ref: `#/components/schemas/${id}` };
    }
    return rest;
  };

  const paths: Record<string, Record<string, JsonSchema>> = {};
  // The stack's own rules are added once every component is final: a later conversion replaces a component with a
  // fresh copy of it (request-rules.ts).
  const requestSchemas: { schema: JsonSchema; query: boolean }[] = [];
  for (const route of routes) {
    const responses: Record<string, JsonSchema> = {
      [route.success]: route.binaryResponse
        ? binarySuccess(route.binaryResponse)
        : route.success === 204 || !route.response
          ? { description: STATUS_CODES[route.success] ?? 'Success' }
          : {
              description: STATUS_CODES[route.success] ?? 'Success',
              content: { 'application/json': { schema: convert(route.response, 'output') } },
            },
      ...(route.binaryResponse?.redirect ? { 302: redirectResponse(route.binaryResponse.redirect) } : {}),
    };
    const errors = new Set([
      ...(COMMON_ERRORS[route.auth === 'public' ? 'public' : 'authenticated'] ?? []),
      ...(route.errors ?? []),
    ]);
    for (const status of [...errors].sort()) {
      responses[status] = { description: STATUS_CODES[status] ?? 'Error', content: ERROR_CONTENT };
    }
    for (const [status, schema] of Object.entries(route.errorBodies ?? {})) {
      responses[status] = {
        description: STATUS_CODES[Number(status)] ?? 'Error',
        content: { 'application/json': { schema: convert(schema, 'output') } },
      };
    }
    if (route.paced) responses[429] = PACED_429;
    if (route.idempotent) {
      for (const [status, description] of Object.entries(IDEMPOTENCY.errors)) {
        responses[status] = { description, content: ERROR_CONTENT };
      }
      (responses[route.success] as JsonSchema).headers = IDEMPOTENCY.replayedHeader;
    }
    const unsupported = route.capability ? engineUnsupportedResponse(route.capability) : null;
    if (unsupported) responses[501] = unsupported;
    const parameters: JsonSchema[] = [];
    for (const [where, schema] of [
      ['path', route.params],
      ['query', route.query],
    ] as const) {
      if (!schema) continue;
      const json = convert(schema, 'input') as {
        properties?: Record<string, JsonSchema>;
        required?: string[];
      };
      for (const [name, property] of Object.entries(json.properties ?? {})) {
        requestSchemas.push({ schema: property, query: where === 'query' });
        parameters.push({
          name,
          in: where,
          required: where === 'path' || (json.required ?? []).includes(name),
          schema: property,
        });
      }
    }
    if (route.idempotent) {
      parameters.push({
        name: 'Idempotency-Key',
        in: 'header',
        required: false,
        schema: convert(IdempotencyKey, 'input'),
      });
    }
    const body = route.body ? convert(route.body, 'input') : undefined;
    if (body) requestSchemas.push({ schema: body, query: false });
    const operation: JsonSchema = {
      tags: [route.tag],
      summary: route.summary,
      operationId: `${route.method.toLowerCase()}${route.path.replace(/[{}]/g, '').replace(/[^A-Za-z0-9]+(.)/g, (_, c: string) => c.toUpperCase())}`,
      ...(parameters.length ? { parameters } : {}),
      ...(body ? { requestBody: { required: true, content: { 'application/json': { schema: body } } } } : {}),
      responses,
      ...(route.capability ? { 'x-engine-capability': route.capability } : {}),
      ...(route.auth === 'public'
        ? { security: [] }
        : {
            'x-required-role': route.auth.role,
            ...(route.auth.unscoped ? { 'x-unscoped-key-only': true } : {}),
          }),
    };
    paths[route.path] ??= {};
    (paths[route.path] as Record<string, JsonSchema>)[route.method.toLowerCase()] = operation;
  }

  const rules = new RequestRules(components);
  for (const { schema, query } of requestSchemas) {
    if (query) rules.queryValue(schema);
    else rules.refuseNul(schema);
  }

  return {
    openapi: '3.1.0',
    info: { title: 'Waygate API', version, description: DESCRIPTION },
    servers: [{ url: '/' }],
    security: [{ apiKey: [] }, { bearer: [] }],
    paths,
    components: {
      schemas: components,
      responses: { MethodNotAllowed: METHOD_NOT_ALLOWED },
      securitySchemes: {
        apiKey: { type: 'apiKey', in: 'header', name: 'X-API-Key' },
        bearer: { type: 'http', scheme: 'bearer' },
      },
    },
  };
}
