/**
 * Env of the agent-tool endpoint (POST /mcp, issue 38): whether it is mounted at all, whether write tools are, and its
 * two rate limits (spec "Limits": a missing, blank, non-positive or non-numeric limit uses the default).
 */
import { z } from 'zod';
import { commaList, flag, limit } from './fields.js';

export const McpEnv = z.object({
  /** Mounts POST /mcp; without it the path is unknown (404) like any other. */
  MCP_ENABLED: flag(false),
  /**
   * Read-only unless exactly `false` (spec "Agent-tool endpoint"): any other value, `0` or a typo included, keeps the
   * write tools unmounted, so a mistake never widens what an agent can do.
   */
  MCP_READONLY: z.preprocess((value) => value !== 'false', z.boolean()),
  /** Tool calls per key per window. */
  MCP_RATE_LIMIT_MAX: limit(60),
  MCP_RATE_LIMIT_WINDOW_MS: limit(60_000),
  /** Requests to /mcp per client IP per window, counted before authentication. */
  MCP_IP_RATE_LIMIT_MAX: limit(120),
  MCP_IP_RATE_LIMIT_WINDOW_MS: limit(60_000),
  /**
   * Browser origins (`https://agent.example.com`) whose pages may call /mcp besides the gateway's own; a request with
   * another Origin is refused (403), as the streamable HTTP transport asks against DNS rebinding. Empty by default.
   */
  MCP_ALLOWED_ORIGINS: commaList,
});
