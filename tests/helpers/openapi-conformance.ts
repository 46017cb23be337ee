/**
 * A validating proxy in the test client: every answer the API tests receive is checked against the gateway's own
 * `/api/openapi.json`, as a client generated from that document (or a validating proxy in front of the gateway)
 * would check it. An answer breaks the document when its route is not documented, its status is not among the
 * operation's responses, or its JSON body does not match the schema documented for that status.
 *
 * What it does not check: requests (the tests send malformed ones on purpose), and the answer to a path the
 * document does not describe when it is 404 or 400 (an unknown path, or one that cannot be decoded).
 */
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { buildOpenApiDocument } from '#functions/docs/openapi.js';
import { RouteTable } from '#functions/http/route-table.js';
import { allRoutes } from '#functions/manifest.js';

type JsonSchema = Record<string, unknown>;
type Operation = { responses: Record<string, { content?: Record<string, { schema?: JsonSchema }> }> };
export type OpenApiDocument = { paths: Record<string, Record<string, Operation>>; components: JsonSchema };

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
      const operation = document.paths[template]?.[verb] as Operation;
      const key = [String(status), `${String(status)[0]}XX`, 'default'].find((k) => operation.responses[k]);
      const where = `${method} ${template} ${status}`;
      if (!key) return [`${where}: status not documented (${Object.keys(operation.responses).join(', ')})`];
      const content = operation.responses[key]?.content;
      if (!content) return body === null || body === '' ? [] : [`${where}: a body where none is documented`];
      const mediaType = (contentType ?? '').split(';')[0]?.trim() ?? '';
      if (!content[mediaType]) {
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
