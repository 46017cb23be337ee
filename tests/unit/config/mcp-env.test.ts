/**
 * The agent-tool variables (issue 38): off by default, read-only unless MCP_READONLY is exactly `false`, and the two
 * rate limits with the spec's limit fallback (missing, blank, non-positive or non-numeric → the default).
 */

import { describe, expect, it } from '@jest/globals';
import { loadEnv } from '#shared/config/env.js';

describe('agent-tool configuration', () => {
  it('leaves /mcp unmounted and read-only by default, at 60 calls per key and 120 requests per IP a minute', () => {
    expect(loadEnv({})).toMatchObject({
      MCP_ENABLED: false,
      MCP_READONLY: true,
      MCP_RATE_LIMIT_MAX: 60,
      MCP_RATE_LIMIT_WINDOW_MS: 60_000,
      MCP_IP_RATE_LIMIT_MAX: 120,
      MCP_IP_RATE_LIMIT_WINDOW_MS: 60_000,
      MCP_ALLOWED_ORIGINS: [],
    });
  });

  it('reads the allowed browser origins as a comma list', () => {
    expect(
      loadEnv({ MCP_ALLOWED_ORIGINS: ' https://agent.example.com, https://ops.example.org ,' })
        .MCP_ALLOWED_ORIGINS,
    ).toEqual(['https://agent.example.com', 'https://ops.example.org']);
  });

  it('mounts /mcp with MCP_ENABLED=true', () => {
    expect(loadEnv({ MCP_ENABLED: 'true' }).MCP_ENABLED).toBe(true);
  });

  it.each(['true', '0', 'False', 'no', ' false', ''])('stays read-only with MCP_READONLY=%j', (value) => {
    expect(loadEnv({ MCP_READONLY: value }).MCP_READONLY).toBe(true);
  });

  it('mounts the write tools only with MCP_READONLY exactly false', () => {
    expect(loadEnv({ MCP_READONLY: 'false' }).MCP_READONLY).toBe(false);
  });

  it.each(['', '  ', '0', '-5', 'abc', '1e'])('uses the default limits for %j', (value) => {
    expect(
      loadEnv({
        MCP_RATE_LIMIT_MAX: value,
        MCP_RATE_LIMIT_WINDOW_MS: value,
        MCP_IP_RATE_LIMIT_MAX: value,
        MCP_IP_RATE_LIMIT_WINDOW_MS: value,
      }),
    ).toMatchObject({
      MCP_RATE_LIMIT_MAX: 60,
      MCP_RATE_LIMIT_WINDOW_MS: 60_000,
      MCP_IP_RATE_LIMIT_MAX: 120,
      MCP_IP_RATE_LIMIT_WINDOW_MS: 60_000,
    });
  });

  it('takes positive limits as given', () => {
    expect(
      loadEnv({
        MCP_RATE_LIMIT_MAX: '3',
        MCP_RATE_LIMIT_WINDOW_MS: '1000',
        MCP_IP_RATE_LIMIT_MAX: '7',
        MCP_IP_RATE_LIMIT_WINDOW_MS: '2000',
      }),
    ).toMatchObject({
      MCP_RATE_LIMIT_MAX: 3,
      MCP_RATE_LIMIT_WINDOW_MS: 1000,
      MCP_IP_RATE_LIMIT_MAX: 7,
      MCP_IP_RATE_LIMIT_WINDOW_MS: 2000,
    });
  });
});
