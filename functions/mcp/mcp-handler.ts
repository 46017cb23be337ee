/**
 * POST /mcp (issue 38): the agent-tool endpoint, a stateless streamable HTTP MCP server. Each request stands alone:
 * the per-IP throttle, then the key (401 with `WWW-Authenticate: Bearer` before any method, initialize included; a
 * key bound to client IPs is refused, as an agent's calls carry none it vouches for), then the SDK's server answers
 * it (server.ts): a server of its own through the SDK's streamable HTTP transport, or, for the plain single request
 * most calls are, a server shared by them without the transport (single-request.ts). Takes and answers API Gateway v2
 * events, as every function does, so the embedded gateway mounts it beside the routes.
 */
import { randomUUID } from 'node:crypto';
import { WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js';
import type { APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2 } from 'aws-lambda';
import { depsReady, getDeps } from '#functions/deps.js';
import { flushAfterRequest } from '#functions/http/flush-after-request.js';
import { presentedKey } from '#functions/http/presented-key.js';
import type { Caller, CallerKey } from '#shared/domain/caller.js';
import { AppError } from '#shared/errors/app-error.js';
import { resolveClientIp } from '#shared/security/ip.js';
import { FixedWindowRateLimiter } from '#shared/security/rate-limiter.js';
import { authenticate } from '#shared/use-cases/auth/authenticate.js';
import { originAllowed } from './origin.js';
import { type CallContext, mcpServer } from './server.js';
import { SharedServer, singleRequest } from './single-request.js';

type Result = APIGatewayProxyStructuredResultV2;

/** A JSON-RPC error answered before the MCP server runs (id null: no request was read). */
function rpcError(status: number, message: string, headers: Record<string, string> = {}): Result {
  return {
    statusCode: status,
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify({ jsonrpc: '2.0', error: { code: -32000, message }, id: null }),
  };
}

/** `event` answered through the SDK's HTTP transport, by a server of its own. */
async function throughTransport(event: APIGatewayProxyEventV2, context: CallContext): Promise<Result> {
  const { deps } = context;
  const server = mcpServer(deps.env.MCP_READONLY, deps.version, () => context);
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
}

/** Builds the endpoint's handler; its limiters and shared servers live as long as it (one per process, as REST's). */
export function createMcpHandler() {
  let limiters: { ip: FixedWindowRateLimiter; key: FixedWindowRateLimiter } | undefined;
  const sharedServers = new Map<boolean, SharedServer>();
  const answer = async (event: APIGatewayProxyEventV2): Promise<Result> => {
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
    if (!originAllowed(event.headers, env.MCP_ALLOWED_ORIGINS)) return rpcError(403, 'Origin not allowed');
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
      // The key alone here: each tool checks its route's role, scope and chats.
      { role: 'viewer', chats: true },
    ).catch((error: unknown) => {
      if (!(error instanceof AppError)) throw error;
      const challenge: Record<string, string> = error.status === 401 ? { 'www-authenticate': 'Bearer' } : {};
      return rpcError(error.status, error.message, challenge);
    });
    if (!('role' in authenticated)) return authenticated;
    const context: CallContext = { caller: { ...caller, key: authenticated }, deps, limiter: limiters.key };
    const single = singleRequest(event);
    if (!single) return throughTransport(event, context);
    // A shared server per mode: in the aws mode's tests one handler serves gateways of both modes in turn.
    const readOnly = env.MCP_READONLY;
    let shared = sharedServers.get(readOnly);
    if (!shared) {
      shared = new SharedServer((contextOf) => mcpServer(readOnly, deps.version, contextOf));
      sharedServers.set(readOnly, shared);
    }
    return shared.answer(single, context, event);
  };
  // As the REST stack does: what a call audited in the background is written before a Lambda instance may freeze.
  return async (event: APIGatewayProxyEventV2): Promise<Result> => {
    try {
      return await answer(event);
    } finally {
      await flushAfterRequest();
    }
  };
}
