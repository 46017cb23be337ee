/**
 * What the HTTP stack refuses before a route's own schemas run, added to the request schemas of the OpenAPI document
 * so that they say it too (functions/http/parse-request.ts is the check): no NUL character in any string or key of a
 * body, a path parameter or a query value, and no empty query value. No route schema holds these rules, because no
 * route decides them; the stack applies them to every route alike.
 */
type JsonSchema = Record<string, unknown>;

/** A string without NUL (the escape as JSON Schema reads it, so the document never carries a raw NUL). */
export const NUL_FREE = '^[^\\u0000]*$';

const COMPONENT = 'JsonWithoutNul';
const REF = `#/components/schemas/${COMPONENT}`;

/** What a free-form value (`{}`: session config's extra keys) becomes: any JSON whose strings and keys hold no NUL. */
const JSON_WITHOUT_NUL: JsonSchema = {
  description: 'Any JSON value whose strings and object keys hold no NUL character',
  anyOf: [
    { type: ['null', 'boolean', 'number'] },
    { type: 'string', pattern: NUL_FREE },
    { type: 'array', items: { $ref: REF } },
    { type: 'object', propertyNames: { pattern: NUL_FREE }, additionalProperties: { $ref: REF } },
  ],
};

/** Keywords that only annotate: a schema of these alone is "any value". */
const ANNOTATIONS = new Set([
  'description',
  'default',
  'title',
  'examples',
  'deprecated',
  'readOnly',
  'writeOnly',
]);

function isSchema(value: unknown): value is JsonSchema {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * Applies the stack's rules to request schemas whose components are `components` (each component is walked once, and
 * is shared with the responses that use it: their values came through requests, so the rules hold for them too).
 */
export class RequestRules {
  private readonly walked = new Set<string>();

  constructor(private readonly components: Record<string, JsonSchema>) {}

  /** A body or path parameter: no NUL anywhere. */
  refuseNul(schema: JsonSchema): void {
    if (typeof schema.$ref === 'string') {
      const name = schema.$ref.replace('#/components/schemas/', '');
      const component = this.components[name];
      if (component && !this.walked.has(name)) {
        this.walked.add(name);
        this.refuseNul(component);
      }
      return;
    }
    if (Object.keys(schema).every((keyword) => ANNOTATIONS.has(keyword))) {
      this.components[COMPONENT] ??= JSON_WITHOUT_NUL;
      schema.$ref = REF;
      return;
    }
    const types = Array.isArray(schema.type) ? schema.type : [schema.type];
    if (types.includes('string') && !('enum' in schema) && !('const' in schema)) addNulFree(schema);
    if (types.includes('object') && schema.additionalProperties !== false) {
      if (isSchema(schema.propertyNames)) addNulFree(schema.propertyNames);
      else schema.propertyNames = { pattern: NUL_FREE };
    }
    for (const inner of Object.values(isSchema(schema.properties) ? schema.properties : {})) {
      if (isSchema(inner)) this.refuseNul(inner);
    }
    for (const keyword of ['additionalProperties', 'items']) {
      const inner = schema[keyword];
      if (isSchema(inner)) this.refuseNul(inner);
    }
    for (const keyword of ['anyOf', 'oneOf', 'allOf', 'prefixItems']) {
      const list = schema[keyword];
      if (Array.isArray(list)) for (const inner of list) if (isSchema(inner)) this.refuseNul(inner);
    }
  }

  /** A query value: no NUL, and not empty (a string has at least one character; a number or a flag is never ''). */
  queryValue(schema: JsonSchema): void {
    this.refuseNul(schema);
    const types = Array.isArray(schema.type) ? schema.type : [schema.type];
    const listed = 'enum' in schema || 'const' in schema;
    if (
      types.includes('string') &&
      !listed &&
      !(typeof schema.minLength === 'number' && schema.minLength > 0)
    ) {
      schema.minLength = 1;
    }
  }
}

/** A string schema's NUL rule: its pattern when it has none, else one more pattern beside it. */
function addNulFree(schema: JsonSchema): void {
  if (schema.pattern === undefined) {
    schema.pattern = NUL_FREE;
    return;
  }
  if (schema.pattern === NUL_FREE) return;
  const allOf = Array.isArray(schema.allOf) ? schema.allOf : [];
  if (!allOf.some((inner) => isSchema(inner) && inner.pattern === NUL_FREE)) {
    schema.allOf = [...allOf, { pattern: NUL_FREE }];
  }
}
