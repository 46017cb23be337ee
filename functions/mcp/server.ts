/**
 * The SDK server of /mcp: the tools of a mode listed and called, each call with the context of the HTTP request it
 * came in (its caller, the process's dependencies, the per-key limiter), found from the call's `extra`. A request
 * through the SDK's HTTP transport has a server of its own; the plain requests share one (single-request.ts).
 */
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import {
  CallToolRequestSchema,
  ErrorCode,
  ListToolsRequestSchema,
  type ListToolsResult,
  McpError,
} from '@modelcontextprotocol/sdk/types.js';
import { AjvJsonSchemaValidator } from '@modelcontextprotocol/sdk/validation/ajv';
import type { Deps } from '#functions/deps.js';
import type { Caller, CallerKey } from '#shared/domain/caller.js';
import type { FixedWindowRateLimiter } from '#shared/security/rate-limiter.js';
import { callTool } from './tool-call.js';
import { mountedTool, mountedTools } from './tool-registry.js';

/** What a tool call runs with: the caller of its request, the process's dependencies, the per-key limiter. */
export interface CallContext {
  caller: Caller & { key: CallerKey };
  deps: Deps;
  limiter: FixedWindowRateLimiter;
}

/** The request a handler of the SDK runs for, as the SDK describes it (`extra.requestId`). */
export type RequestExtra = { requestId: string | number };

/** The listing every server of one mode (read-only or not) answers, built on first use. */
const listings = new Map<boolean, ListToolsResult>();

function listing(readOnly: boolean): ListToolsResult {
  const known = listings.get(readOnly);
  if (known) return known;
  const listed: ListToolsResult = {
    tools: mountedTools(readOnly).map(({ row, inputSchema, outputSchema }) => ({
      name: row.name,
      description: row.description,
      inputSchema,
      outputSchema,
      annotations: {
        readOnlyHint: row.tier === 'read',
        destructiveHint: row.destructive ?? false,
        idempotentHint: row.idempotent ?? row.tier === 'read',
      },
    })),
  };
  listings.set(readOnly, listed);
  return listed;
}

/**
 * Shared by every server: the SDK builds an Ajv instance per server otherwise (over a millisecond of every request),
 * and uses it only to check an elicitation's answer, which this server never asks for.
 */
let validator: AjvJsonSchemaValidator | undefined;

/** A server of the tools of a mode; `contextOf` gives each call the context of its request. */
export function mcpServer(
  readOnly: boolean,
  version: string,
  contextOf: (extra: RequestExtra) => CallContext,
): Server {
  validator ??= new AjvJsonSchemaValidator();
  const server = new Server(
    { name: 'waygate', version },
    { capabilities: { tools: {} }, jsonSchemaValidator: validator },
  );
  server.setRequestHandler(ListToolsRequestSchema, () => listing(readOnly));
  server.setRequestHandler(CallToolRequestSchema, (request, extra) => {
    const tool = mountedTool(readOnly, request.params.name);
    if (!tool) throw new McpError(ErrorCode.InvalidParams, `Tool ${request.params.name} not found`);
    const { caller, deps, limiter } = contextOf(extra);
    return callTool(tool, request.params.arguments ?? {}, caller, deps, limiter);
  });
  return server;
}
