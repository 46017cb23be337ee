/**
 * One tools/call, in the order issue 38 gives: the session scope of the key, the per-key rate limit, the route's role,
 * then the route itself (input validation and `run`) through the transport-neutral callRoute, with the caller a REST
 * call would have, marked with the tool's name for the audit. Before all that, a write tool is refused while the
 * process drains, as its REST route is. Every failure is answered in-band, mapped once: the REST error body
 * (error-response.ts) as the tool's error text.
 */
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { Deps } from '#functions/deps.js';
import { errorResponse } from '#functions/http/error-response.js';
import { WithHeaders } from '#functions/http/route.js';
import { callRoute, type RouteInput, refuseKey, routeRequirement } from '#functions/http/route-call.js';
import type { Caller, CallerKey } from '#shared/domain/caller.js';
import { RateLimitedError } from '#shared/errors/app-error.js';
import type { FixedWindowRateLimiter } from '#shared/security/rate-limiter.js';
import {
  type AccessRequirement,
  accessRefusal,
  sessionRefusal,
} from '#shared/use-cases/auth/authenticate.js';
import { type McpTool, WRAPPED_RESULT } from './tool-registry.js';

/** A tool's arguments handed back to its route as path, query and body, as a REST client would send them. */
function routeInput(tool: McpTool, args: Record<string, unknown>): RouteInput {
  const params: Record<string, string> = {};
  const query: Record<string, string> = {};
  const body: Record<string, unknown> = {};
  // An argument no part names goes where the route's schema refuses it by name (strict body, or no body at all).
  const fallback = tool.route.body || !tool.route.query ? 'body' : 'query';
  for (const [name, value] of Object.entries(args)) {
    const { part, field } = tool.parts.get(name) ?? { part: fallback, field: name };
    if (part === 'body') body[field] = value;
    else
      (part === 'params' ? params : query)[field] = typeof value === 'string' ? value : JSON.stringify(value);
  }
  const hasBody = tool.route.body !== undefined || Object.keys(body).length > 0;
  return { params, query, ...(hasBody ? { body } : {}) };
}

async function runTool(
  tool: McpTool,
  args: Record<string, unknown>,
  caller: Caller & { key: CallerKey },
  deps: Deps,
  keyLimiter: FixedWindowRateLimiter,
): Promise<CallToolResult> {
  // A write tool while the process drains: refused in-band as its REST route would be (SHUTTING_DOWN, retryable).
  const draining = deps.drain.writeRefusal(tool.route.method);
  if (draining) throw draining;
  const input = routeInput(tool, args);
  const requirement: AccessRequirement | null = routeRequirement(tool.route, input.params);
  const { key } = caller;
  const sessionId = requirement?.sessionId;
  // The session scope comes first; the role and the chats are checked with the route's requirement after the limit.
  const outOfScope = sessionId === undefined ? null : sessionRefusal(key, sessionId);
  if (outOfScope) await refuseKey(deps, caller, outOfScope, sessionId);
  const decision = keyLimiter.hit(key.id, deps.clock.now().getTime());
  if (!decision.allowed) {
    void deps.audit.record(caller, {
      action: 'rate_limit_exceeded',
      severity: 'warn',
      statusCode: 429,
      metadata: { subject: key.id, kind: 'mcp' },
    });
    throw new RateLimitedError(decision.retryAfterSeconds, {
      code: 'RATE_LIMITED',
      message: 'MCP rate limit exceeded',
    });
  }
  const refusal = requirement ? accessRefusal(key, requirement) : null;
  if (refusal) await refuseKey(deps, caller, refusal, sessionId);
  const result = await callRoute(tool.route, { caller, input }, deps);
  // What a REST client reads: the JSON of the body (undefined fields gone, dates as text).
  const body = result instanceof WithHeaders ? result.body : result;
  const text = body === undefined ? 'null' : JSON.stringify(body);
  const json: unknown = JSON.parse(text);
  const structuredContent = (tool.wrapsResult ? { [WRAPPED_RESULT]: json } : json) as Record<string, unknown>;
  return { content: [{ type: 'text', text }], structuredContent };
}

/** Calls `tool` for an authenticated caller; a failure is the tool's in-band error, never a protocol error. */
export function callTool(
  tool: McpTool,
  args: Record<string, unknown>,
  caller: Caller & { key: CallerKey },
  deps: Deps,
  keyLimiter: FixedWindowRateLimiter,
): Promise<CallToolResult> {
  const toolCaller = { ...caller, tool: tool.row.name };
  return runTool(tool, args, toolCaller, deps, keyLimiter).catch((error: unknown) => {
    const answer = errorResponse(error, deps.logger.child({ reqId: caller.requestId, tool: tool.row.name }));
    return { isError: true, content: [{ type: 'text', text: String(answer.body) }] };
  });
}
