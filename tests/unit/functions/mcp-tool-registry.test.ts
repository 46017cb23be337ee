/**
 * The MCP tool registry makes an engine operation tool's route from the operation's row (engineOperationRoute), so the
 * MCP function never loads the whole route manifest; these tests hold it to the route REST serves at that method and
 * path, and to mounting by tier.
 */
import { describe, expect, it } from '@jest/globals';
import { z } from 'zod';
import type { AnyRoute } from '#functions/http/route.js';
import { allRoutes } from '#functions/manifest.js';
import { mountedTool, mountedTools, TOOL_ROWS } from '#functions/mcp/tool-registry.js';

type Schema = z.ZodType | undefined;
const json = (schema: Schema, io: 'input' | 'output') =>
  schema ? z.toJSONSchema(schema, { io, unrepresentable: 'any' }) : null;

/** What a route answers and refuses, its schemas as JSON Schema; `run` by its source (one maker, one source). */
function shapeOf(route: AnyRoute) {
  const { run, params, query, body, response, ...rest } = route;
  return {
    ...rest,
    params: json(params as Schema, 'input'),
    query: json(query as Schema, 'input'),
    body: json(body as Schema, 'input'),
    response: json(response as Schema, 'output'),
    run: run.toString(),
  };
}

describe('MCP tool registry', () => {
  const operationRows = TOOL_ROWS.filter((row) => 'operation' in row.calls);

  it.each(operationRows.map((row) => [row.name, row] as const))(
    '%s calls the route REST serves for its engine operation',
    (name, row) => {
      const tool = mountedTool(false, name);
      if (!tool) throw new Error(`${name} is not mounted`);
      const served = allRoutes().filter((r) => r.method === tool.route.method && r.path === tool.route.path);
      expect(served).toHaveLength(1);
      expect(tool.row).toBe(row);
      expect(shapeOf(tool.route)).toEqual(shapeOf(served[0] as AnyRoute));
    },
  );

  it('calls a route module of the manifest for every other tool', () => {
    const routes = new Set(allRoutes());
    const others = TOOL_ROWS.filter((row) => !('operation' in row.calls));
    expect(others.length).toBeGreaterThan(0);
    for (const row of others) expect(routes.has(mountedTool(false, row.name)?.route as AnyRoute)).toBe(true);
  });

  it('mounts the read tools when read-only and every tool otherwise, each made once per process', () => {
    const reads = TOOL_ROWS.filter((row) => row.tier === 'read').map((row) => row.name);
    const write = TOOL_ROWS.find((row) => row.tier === 'write');
    expect(mountedTools(true).map((tool) => tool.row.name)).toEqual(reads);
    expect(mountedTools(false).map((tool) => tool.row.name)).toEqual(TOOL_ROWS.map((row) => row.name));
    expect(write && mountedTool(true, write.name)).toBeUndefined();
    expect(write && mountedTool(false, write.name)).toBe(mountedTools(false).find((t) => t.row === write));
    expect(mountedTool(false, 'NoSuchTool')).toBeUndefined();
  });
});
