/**
 * The MCP SDK's own client against a gateway's POST /mcp (issue 38), as an agent connects: Streamable HTTP, the API
 * key as a bearer token. Shared by the API tests of the endpoint and the end-to-end ones on the simulator.
 */
import { expect } from '@jest/globals';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';

/** A connected (initialized) client of the gateway at `gateway.url`, acting as `key`. */
export async function connectMcp(gateway: { url: string }, key: string): Promise<Client> {
  const client = new Client({ name: 'waygate-test', version: '1.0.0' });
  const transport = new StreamableHTTPClientTransport(new URL(`${gateway.url}/mcp`), {
    requestInit: { headers: { authorization: `Bearer ${key}` } },
  });
  await client.connect(transport);
  // The SDK client checks a call's structuredContent against the tool's outputSchema only for the tools it has
  // listed: listing them here has every call of a test checked so.
  await client.listTools();
  return client;
}

/** The REST error body a tool answered in-band; fails the test when the call did not fail. */
export function toolError(result: CallToolResult): { code: string; message: string } {
  expect(result.isError).toBe(true);
  const [first] = result.content;
  return JSON.parse(first?.type === 'text' ? first.text : '{}') as { code: string; message: string };
}
