/**
 * The agent tools made from their rows (tools/*.ts): each row's route gives the tool its input schema (the route's
 * path, query and body schemas as one object), its output schema (the route's response schema) and the way a call's
 * arguments are handed back to the route as path, query and body. Nothing is written per tool. A tool is made on its
 * first use and kept for the process: a cold start answers `initialize` without converting any schema, a call makes
 * its own tool only, and a listing makes the listed ones (zod to JSON Schema is most of a cold listing's cost).
 */
import { z } from 'zod';
import { engineOperationRoute } from '#functions/http/engine-operation-route.js';
import type { AnyRoute } from '#functions/http/route.js';
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

/**
 * The route REST serves for the row: the module itself, or its engine operation's route, made from the operation's
 * row as the manifest's groups make theirs (engineOperationRoute), so the function never loads the whole manifest
 * (tests/unit/functions/mcp-tool-registry.test.ts checks that REST serves that same route).
 */
function routeOf(row: ToolRow): AnyRoute {
  return 'operation' in row.calls ? engineOperationRoute(ENGINE_OPERATIONS[row.calls.operation]) : row.calls;
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

function buildTool(row: ToolRow): McpTool {
  const route = routeOf(row);
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

/** The tools made so far in this process, by name. */
const built = new Map<string, McpTool>();

function toolOf(row: ToolRow): McpTool {
  let tool = built.get(row.name);
  if (!tool) {
    tool = buildTool(row);
    built.set(row.name, tool);
  }
  return tool;
}

/** Whether a server mounts the row: the read tools always, the write tools unless read-only. */
const mounted = (row: ToolRow, readOnly: boolean) => !readOnly || row.tier === 'read';

/** The tools a server mounts, in listing order, each made on its first use. */
export function mountedTools(readOnly: boolean): McpTool[] {
  return TOOL_ROWS.filter((row) => mounted(row, readOnly)).map(toolOf);
}

/** The rows by name: a tool call finds its row without walking the list. */
const ROWS_BY_NAME = new Map(TOOL_ROWS.map((row) => [row.name, row]));

/** The mounted tool of that name, made on its first use; undefined when no mounted row has the name. */
export function mountedTool(readOnly: boolean, name: string): McpTool | undefined {
  const row = ROWS_BY_NAME.get(name);
  return row && mounted(row, readOnly) ? toolOf(row) : undefined;
}
