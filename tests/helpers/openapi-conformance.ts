/**
 * A validating proxy in the test client: every answer the API tests receive is checked against the gateway's own
 * `/api/openapi.json`, as a client generated from that document (or a validating proxy in front of the gateway)
 * would check it. An answer breaks the document when its route is not documented, its status is not among the
 * operation's responses, or its JSON body does not match the schema documented for that status.
 *
 * What it does not check: requests (the tests send malformed ones on purpose; `compileRequestCheck` tells what the
 * document accepts, for the tests that compare it with the gateway), and the answer to a path the document does not
 * describe when it is 404 or 400 (an unknown path, or one that cannot be decoded).
 */
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { buildOpenApiDocument } from '#functions/docs/openapi.js';
import { RouteTable } from '#functions/http/route-table.js';
import { allRoutes } from '#functions/manifest.js';

type JsonSchema = Record<string, unknown>;
type Operation = { responses: Record<string, { content?: Record<string, { schema?: JsonSchema }> }> };
export type OpenApiDocument = { paths: Record<string, Record<string, Operation>>; components: JsonSchema };

/**
 * Every answer this test file received, by operation and status (`GET /api/sessions/{id} 200`): the route ledger a
 * project may keep (route-ledger-setup.ts) to prove that its files together reach every route.
 */
export const answeredOperations = new Set<string>();

/** Every documented operation (`GET /api/sessions/{id}`), for the ledger's comparison. */
export function documentedOperations(): string[] {
  const document = buildOpenApiDocument(allRoutes(), 'test') as OpenApiDocument;
  return Object.entries(document.paths).flatMap(([template, operations]) =>
    Object.keys(operations).map((verb) => `${verb.toUpperCase()} ${template}`),
  );
}

interface Conformance {
  /** The ways `status` and `body` (parsed JSON, or the text) break the document for `method` `path`. */
  check(method: string, path: string, status: number, contentType: string | null, body: unknown): string[];
}

const DOCUMENT_ID = 'openapi.json';

function escapePointer(segment: string): string {
  return segment.replaceAll('~', '~0').replaceAll('/', '~1');
}

/** An ajv holding `document` under DOCUMENT_ID, so a pointer into it names a schema to validate with. */
function documentAjv(document: OpenApiDocument): Ajv2020 {
  const ajv = new Ajv2020({ strict: false, allErrors: true, validateFormats: true });
  addFormats.default(ajv);
  ajv.addSchema({ $id: DOCUMENT_ID, components: document.components, paths: document.paths });
  return ajv;
}

/** The checker of `document` (exported for its own tests). */
export function compileConformance(document: OpenApiDocument): Conformance {
  const ajv = documentAjv(document);
  // The gateway's own matcher (static paths before templates, a trailing slash tolerated), one route per operation.
  const routes = new RouteTable<{ template: string; verb: string }>();
  for (const [template, operations] of Object.entries(document.paths)) {
    for (const verb of Object.keys(operations)) routes.add(verb.toUpperCase(), template, { template, verb });
  }
  const methods = [
    ...new Set(Object.values(document.paths).flatMap((operations) => Object.keys(operations))),
  ];

  return {
    check(method, path, status, contentType, body) {
      const pathname = path.split('?')[0] as string;
      const matched = routes.match(method.toUpperCase(), pathname)?.value;
      if (!matched) {
        const documented = methods.some((other) => routes.match(other.toUpperCase(), pathname));
        // A documented path asked with another method is 405 (#/components/responses/MethodNotAllowed), or 400
        // when it cannot be decoded; an unknown path (or one that cannot be decoded), 404 or 400.
        if (documented)
          return status === 405 || status === 400 ? [] : [`${method} ${pathname}: undocumented method`];
        return status === 404 || status === 400 ? [] : [`${method} ${pathname}: undocumented path`];
      }
      const { template, verb } = matched;
      answeredOperations.add(`${verb.toUpperCase()} ${template} ${status}`);
      const operation = document.paths[template]?.[verb] as Operation;
      const key = [String(status), `${String(status)[0]}XX`, 'default'].find((k) => operation.responses[k]);
      const where = `${method} ${template} ${status}`;
      if (!key) return [`${where}: status not documented (${Object.keys(operation.responses).join(', ')})`];
      const content = operation.responses[key]?.content;
      if (!content) return body === null || body === '' ? [] : [`${where}: a body where none is documented`];
      const mediaType = (contentType ?? '').split(';')[0]?.trim() ?? '';
      // A documented media range (`*/*`, `image/*`) takes any type it covers.
      const covered = Object.keys(content).some(
        (range) => range === '*/*' || (range.endsWith('/*') && mediaType.startsWith(range.slice(0, -1))),
      );
      if (!content[mediaType] && !covered) {
        return [
          `${where}: content type ${mediaType || '(none)'} not documented (${Object.keys(content).join(', ')})`,
        ];
      }
      if (mediaType !== 'application/json') return [];
      const pointer = `/paths/${escapePointer(template)}/${verb}/responses/${key}/content/${escapePointer(mediaType)}/schema`;
      // Compiled on first use and kept by ajv under this reference.
      const validate = ajv.getSchema(`${DOCUMENT_ID}#${pointer}`);
      if (!validate) return [`${where}: no schema at ${pointer}`];
      if (validate(body)) return [];
      return (validate.errors ?? []).map(
        (error) =>
          `${where}: body${error.instancePath} ${error.message ?? 'is invalid'} ${JSON.stringify(error.params)}`,
      );
    },
  };
}

/** What the document accepts of a request to an operation: the ways a body or a query breaks it ([] when none). */
export interface RequestCheck {
  body(method: string, path: string, body: unknown): string[];
  /** Query values as they arrive (strings); a number-typed parameter's value is read as JSON. */
  query(method: string, path: string, query: Record<string, string>): string[];
}

type Parameter = { name: string; in: string; required?: boolean; schema: JsonSchema };

/** The request side of `document`, validated as a client generated from it would (ajv 2020-12 and its formats). */
export function compileRequestCheck(document: OpenApiDocument): RequestCheck {
  const ajv = documentAjv(document);
  const operationOf = (method: string, path: string) => {
    const verb = method.toLowerCase();
    const operation = document.paths[path]?.[verb] as
      | (Operation & { requestBody?: unknown; parameters?: Parameter[] })
      | undefined;
    if (!operation) throw new Error(`${method} ${path} is not in the document`);
    return { operation, pointer: `/paths/${escapePointer(path)}/${verb}` };
  };
  const validate = (pointer: string, value: unknown, where: string): string[] => {
    const check = ajv.getSchema(`${DOCUMENT_ID}#${pointer}`);
    if (!check) return [`no schema at ${pointer}`];
    if (check(value)) return [];
    return (check.errors ?? []).map(
      (error) => `${where}${error.instancePath} ${error.message ?? 'is invalid'}`,
    );
  };
  return {
    body(method, path, body) {
      const { operation, pointer } = operationOf(method, path);
      if (!operation.requestBody) return body === undefined ? [] : ['a body where none is documented'];
      if (body === undefined) return ['the body is required'];
      return validate(`${pointer}/requestBody/content/application~1json/schema`, body, 'body');
    },
    query(method, path, query) {
      const { operation, pointer } = operationOf(method, path);
      const findings: string[] = [];
      (operation.parameters ?? []).forEach((parameter, index) => {
        if (parameter.in !== 'query') return;
        const raw = query[parameter.name];
        if (raw === undefined) {
          if (parameter.required) findings.push(`query.${parameter.name} is required`);
          return;
        }
        const numeric = ['integer', 'number'].includes(String(parameter.schema.type));
        let value: unknown = raw;
        if (numeric && /^-?\d+(\.\d+)?$/.test(raw)) value = Number(raw);
        findings.push(...validate(`${pointer}/parameters/${index}/schema`, value, `query.${parameter.name}`));
      });
      return findings;
    },
  };
}

let served: Conformance | undefined;

/**
 * The checker of the document the gateway serves at /api/openapi.json: built here from the same route manifest
 * rather than fetched, so checking costs the gateway under test no request (the rate-limit tests count them).
 */
function servedConformance(): Conformance {
  served ??= compileConformance(buildOpenApiDocument(allRoutes(), 'test') as OpenApiDocument);
  return served;
}

/** Throws, naming every way it does, when an answer breaks the served document (see `Conformance.check`). */
export function assertConforms(
  method: string,
  path: string,
  status: number,
  contentType: string | null,
  body: unknown,
): void {
  const findings = servedConformance().check(method, path, status, contentType, body);
  if (findings.length > 0) {
    const shown = typeof body === 'string' ? body : JSON.stringify(body);
    throw new Error(`the answer breaks /api/openapi.json:\n${findings.join('\n')}\n${shown.slice(0, 500)}`);
  }
}
