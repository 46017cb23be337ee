/**
 * The agent tools made from their rows (tools/*.ts): each row's route, found once, gives the tool its input schema
 * (the route's path, query and body schemas as one object), its output schema (the route's response schema) and
 * the way a call's arguments are handed back to the route as path, query and body. Nothing is written per tool.
 */
import { z } from 'zod';
import type { AnyRoute } from '#functions/http/route.js';
import { allRoutes } from '#functions/manifest.js';
import { ENGINE_OPERATIONS } from '#shared/domain/engine-operations/engine-operations.js';
import { CONTACT_TOOLS, GROUP_TOOLS } from './tools/contact-group-tools.js';
import { AUTOMATION_TOOLS, LABEL_TOOLS, WEBHOOK_TOOLS } from './tools/label-webhook-automation-tools.js';
import { MESSAGE_TOOLS } from './tools/message-tools.js';
import { SESSION_TOOLS } from './tools/session-tools.js';
import type { ToolRow } from './tools/tool-row.js';

type JsonObject = Record<string, unknown>;

/** MCP wants an object schema; a route answering anything else (a list) is answered as `{ result: … }`. */
export const WRAPPED_RESULT = 'result';

/** A tool ready to list and call. */
export interface McpTool {
  row: ToolRow;
  route: AnyRoute;
  inputSchema: JsonObject & { type: 'object' };
  outputSchema: JsonObject & { type: 'object' };
  /** Whether the route's answer is not an object, so it travels as `{ result: answer }`. */
  wrapsResult: boolean;
  /** Which part of the route each argument belongs to, by the argument's name (with the route's own name). */
  parts: ReadonlyMap<string, { part: 'params' | 'query' | 'body'; field: string }>;
}

/** Every row, in listing order. */
export const TOOL_ROWS: readonly ToolRow[] = [
  ...SESSION_TOOLS,
  ...MESSAGE_TOOLS,
  ...CONTACT_TOOLS,
  ...GROUP_TOOLS,
  ...WEBHOOK_TOOLS,
  ...LABEL_TOOLS,
  ...AUTOMATION_TOOLS,
];

/** The route REST serves for the row: the module itself, or the manifest's route of the engine operation. */
function routeOf(row: ToolRow, routes: readonly AnyRoute[]): AnyRoute {
  if (!('operation' in row.calls)) return row.calls;
  const { http } = ENGINE_OPERATIONS[row.calls.operation];
  const route = routes.find((r) => r.method === http.method && r.path === http.path);
  if (!route) throw new Error(`${row.name}: no route serves ${http.method} ${http.path}`);
  return route;
}

interface ObjectSchema {
  properties?: JsonObject;
  required?: string[];
  oneOf?: ObjectSchema[];
  anyOf?: ObjectSchema[];
}

/**
 * An input part's object shapes: the object itself, or each alternative of a union of objects (a media send takes a
 * URL or base64 data); null when the part is no object at all.
 */
function alternatives(json: ObjectSchema): ObjectSchema[] | null {
  if (json.properties) return [json];
  const options = json.oneOf ?? json.anyOf;
  return options?.every((option) => option.properties) ? options : null;
}

/**
 * The JSON Schema of a zod schema, its root inlined: zod emits a named schema (`.meta({ id })`) as a root `$ref` to
 * its `$defs` entry, and MCP reads the root's `type` and `properties`.
 */
function toJson(schema: z.ZodType, io: 'input' | 'output'): JsonObject {
  const { $schema: _dialect, ...json } = z.toJSONSchema(schema, { io, unrepresentable: 'any' });
  const ref = typeof json.$ref === 'string' ? /^#\/\$defs\/(.+)$/.exec(json.$ref)?.[1] : undefined;
  const defs = json.$defs as Record<string, JsonObject> | undefined;
  const named = ref === undefined ? undefined : defs?.[ref];
  return named ? { ...named, $defs: defs } : json;
}

/**
 * An argument's name: the route's, except the session of `/api/sessions/{id}…`, which every tool calls `sessionId`
 * (spec: session-scoped tools carry a non-empty `sessionId`).
 */
function argumentName(route: AnyRoute, part: 'params' | 'query' | 'body', field: string): string {
  return part === 'params' && field === 'id' && route.path.startsWith('/api/sessions/{id}')
    ? 'sessionId'
    : field;
}

function buildTool(row: ToolRow, routes: readonly AnyRoute[]): McpTool {
  const route = routeOf(row, routes);
  const properties: JsonObject = {};
  const required: string[] = [];
  const defs: JsonObject = {};
  const parts = new Map<string, { part: 'params' | 'query' | 'body'; field: string }>();
  for (const part of ['params', 'query', 'body'] as const) {
    const schema = route[part];
    if (!schema) continue;
    const json = toJson(schema, 'input') as ObjectSchema & { $defs?: JsonObject };
    const shapes = alternatives(json);
    if (!shapes) throw new Error(`${row.name}: the ${part} of its route is not an object`);
    Object.assign(defs, json.$defs ?? {});
    for (const shape of shapes) {
      for (const [field, property] of Object.entries(shape.properties ?? {})) {
        const name = argumentName(route, part, field);
        const seen = parts.get(name);
        if (seen && seen.part !== part) throw new Error(`${row.name}: ${name} is in two parts of its route`);
        parts.set(name, { part, field });
        properties[name] ??= property;
      }
    }
    // Required: what every alternative requires (the route's own schema then checks the alternative chosen).
    const first = shapes[0]?.required ?? [];
    for (const field of first) {
      if (shapes.every((shape) => shape.required?.includes(field))) {
        required.push(argumentName(route, part, field));
      }
    }
  }
  const inputSchema = {
    type: 'object' as const,
    properties,
    ...(required.length > 0 ? { required } : {}),
    additionalProperties: false,
    ...(Object.keys(defs).length > 0 ? { $defs: defs } : {}),
  };
  if (!route.response) throw new Error(`${row.name}: its route documents no response`);
  const response = toJson(route.response, 'output');
  const wrapsResult = response.type !== 'object';
  const { $defs, ...answer } = response;
  const outputSchema = wrapsResult
    ? {
        type: 'object' as const,
        properties: { [WRAPPED_RESULT]: answer },
        required: [WRAPPED_RESULT],
        ...($defs ? { $defs } : {}),
      }
    : { ...response, type: 'object' as const };
  return { row, route, inputSchema, outputSchema, wrapsResult, parts };
}

let built: ReadonlyMap<string, McpTool> | undefined;

/** Every tool by name, built on first use (the manifest's routes must exist by then). */
export function mcpTools(): ReadonlyMap<string, McpTool> {
  if (built) return built;
  const routes = allRoutes();
  built = new Map(TOOL_ROWS.map((row) => [row.name, buildTool(row, routes)]));
  return built;
}

/** The tools a server mounts: the read tools, and the write tools unless read-only. */
export function mountedTools(readOnly: boolean): McpTool[] {
  return [...mcpTools().values()].filter((tool) => !readOnly || tool.row.tier === 'read');
}
