/**
 * POST /mcp (issue 38): the agent-tool endpoint, a stateless streamable HTTP MCP server. Each request stands alone:
 * the per-IP throttle, then the key (401 with `WWW-Authenticate: Bearer` before any method, initialize included; a
 * key bound to client IPs is refused, as an agent's calls carry none it vouches for), then a fresh SDK server and
 * transport answer it. Takes and answers API Gateway v2 events, as every function does, so the embedded gateway
 * mounts it beside the routes.
 */
import { randomUUID } from 'node:crypto';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js';
import {
  CallToolRequestSchema,
  ErrorCode,
  ListToolsRequestSchema,
  McpError,
} from '@modelcontextprotocol/sdk/types.js';
import type { jsonSchemaValidator } from '@modelcontextprotocol/sdk/validation';
import { AjvJsonSchemaValidator } from '@modelcontextprotocol/sdk/validation/ajv';
import type { APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2 } from 'aws-lambda';
import { type Deps, depsReady, getDeps } from '#functions/deps.js';
import { presentedKey } from '#functions/http/presented-key.js';
import type { Caller, CallerKey } from '#shared/domain/caller.js';
import { AppError } from '#shared/errors/app-error.js';
import { resolveClientIp } from '#shared/security/ip.js';
import { FixedWindowRateLimiter } from '#shared/security/rate-limiter.js';
import { authenticate } from '#shared/use-cases/auth/authenticate.js';

type Result = APIGatewayProxyStructuredResultV2;

/** A JSON-RPC error answered before the MCP server runs (id null: no request was read). */
function rpcError(status: number, message: string, headers: Record<string, string> = {}): Result {
  return {
    statusCode: status,
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify({ jsonrpc: '2.0', error: { code: -32000, message }, id: null }),
  };
}

/**
 * The SDK's JSON Schema validator, made on its first use and then shared: a server validates with it only what it
 * asks a client for (elicitation), which this one never does, and the SDK's default made a fresh Ajv instance per
 * server, that is per request (about 1 ms each, 25 ms for the first).
 */
let ajv: AjvJsonSchemaValidator | undefined;
const sharedValidator: jsonSchemaValidator = {
  getValidator: (schema) => {
    ajv ??= new AjvJsonSchemaValidator();
    return ajv.getValidator(schema);
  },
};

/**
 * The tools (their rows, the routes they call with those routes' schemas, and the call path), loaded on the first
 * listing or call: an agent's first request, initialize, needs none of it.
 */
let toolModules: Promise<[typeof import('./tool-registry.js'), typeof import('./tool-call.js')]> | undefined;
const loadTools = () =>
  (toolModules ??= Promise.all([import('./tool-registry.js'), import('./tool-call.js')]));

function serverFor(
  readOnly: boolean,
  caller: Caller & { key: CallerKey },
  deps: Deps,
  limiter: FixedWindowRateLimiter,
) {
  const server = new Server(
    { name: 'waygate', version: deps.version },
    { capabilities: { tools: {} }, jsonSchemaValidator: sharedValidator },
  );
  server.setRequestHandler(ListToolsRequestSchema, async () => {
    const [{ mountedTools }] = await loadTools();
    return {
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
  });
  server.setRequestHandler(CallToolRequestSchema, async (request) => {
    const [{ mountedTool }, { callTool }] = await loadTools();
    const tool = mountedTool(readOnly, request.params.name);
    if (!tool) throw new McpError(ErrorCode.InvalidParams, `Tool ${request.params.name} not found`);
    return callTool(tool, request.params.arguments ?? {}, caller, deps, limiter);
  });
  return server;
}

/** Builds the endpoint's handler; its limiters live as long as it (one per process, as REST's). */
export function createMcpHandler() {
  let limiters: { ip: FixedWindowRateLimiter; key: FixedWindowRateLimiter } | undefined;
  return async (event: APIGatewayProxyEventV2): Promise<Result> => {
    await depsReady();
    const deps = getDeps();
    const { env } = deps;
    limiters ??= {
      ip: new FixedWindowRateLimiter(env.MCP_IP_RATE_LIMIT_MAX, env.MCP_IP_RATE_LIMIT_WINDOW_MS),
      key: new FixedWindowRateLimiter(env.MCP_RATE_LIMIT_MAX, env.MCP_RATE_LIMIT_WINDOW_MS),
    };
    const http = event.requestContext.http;
    // Stateless: there is no stream to open (GET) nor session to end (DELETE).
    if (http.method !== 'POST') return rpcError(405, 'Method not allowed.', { allow: 'POST' });
    const ip = resolveClientIp(http.sourceIp || null, event.headers['x-forwarded-for'], env.TRUSTED_PROXIES);
    if (!limiters.ip.hit(ip ?? 'unknown', deps.clock.now().getTime()).allowed) {
      return rpcError(429, 'MCP rate limit exceeded');
    }
    const caller: Caller = {
      key: null,
      ip,
      userAgent: event.headers['user-agent'] ?? null,
      requestId: event.requestContext.requestId || randomUUID(),
      method: 'POST',
      path: '/mcp',
    };
    const authDeps = { apiKeys: deps.main.apiKeys, usage: deps.usage, audit: deps.audit, clock: deps.clock };
    // Authenticated with no client IP: a key bound to IPs is refused (403 FORBIDDEN_IP).
    const authenticated: CallerKey | Result = await authenticate(
      authDeps,
      presentedKey(event.headers),
      { ...caller, ip: null },
      { role: 'viewer' },
    ).catch((error: unknown) => {
      if (!(error instanceof AppError)) throw error;
      const challenge: Record<string, string> = error.status === 401 ? { 'www-authenticate': 'Bearer' } : {};
      return rpcError(error.status, error.message, challenge);
    });
    if (!('role' in authenticated)) return authenticated;
    const key: CallerKey = authenticated;
    const server = serverFor(env.MCP_READONLY, { ...caller, key }, deps, limiters.key);
    const transport = new WebStandardStreamableHTTPServerTransport({ sessionIdGenerator: undefined });
    await server.connect(transport);
    const request = new Request(`http://localhost${event.rawPath}`, {
      method: 'POST',
      headers: event.headers as Record<string, string>,
      ...(event.body === undefined ? {} : { body: event.body }),
    });
    const response = await transport.handleRequest(request);
    // The SSE stream of a stateless request ends with its answer: read whole, it is one Lambda-style result.
    const body = await response.text();
    await server.close();
    return { statusCode: response.status, headers: Object.fromEntries(response.headers), body };
  };
}
