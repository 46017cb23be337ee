/**
 * MCP tools while the gateway drains (SIGTERM): a write tool is refused in-band with the REST refusal (503
 * SHUTTING_DOWN, retryable) before it does anything, and a read tool is still answered, as their REST routes are.
 */
import { afterAll, beforeAll, expect, it } from '@jest/globals';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { connectMcp } from '#tests/helpers/mcp-client.js';
import {
  embeddedOnly,
  startTestGateway,
  type TestGateway,
  waitFor,
  waitForStatus,
} from '#tests/helpers/test-gateway.js';

let gw: TestGateway;
let sessionId: string;

beforeAll(async () => {
  gw = await startTestGateway({ MCP_ENABLED: 'true', MCP_READONLY: 'false' });
  sessionId = (await gw.createSession()).id;
  gw.network.storeCredentials(sessionId, { phone: '15550003333', pushName: 'Me' });
  await gw.request('POST', `/api/sessions/${sessionId}/start`);
  await waitForStatus(gw, sessionId, 'ready');
});
afterAll(() => gw.close());

async function callTool(name: string, args: Record<string, unknown>): Promise<CallToolResult> {
  const client = await connectMcp(gw, gw.adminKey);
  try {
    return (await client.callTool({ name, arguments: args })) as CallToolResult;
  } finally {
    await client.close();
  }
}

const errorBody = (result: CallToolResult): Record<string, unknown> => {
  const [first] = result.content;
  return JSON.parse(first?.type === 'text' ? first.text : '{}') as Record<string, unknown>;
};

embeddedOnly(it, 'the functions run on Lambda in aws mode, which is never drained')(
  'refuses a write tool in-band with SHUTTING_DOWN while draining, and still answers a read tool',
  async () => {
    const send = { sessionId, chatId: '15557770002@c.us', text: 'before the drain' };
    expect((await callTool('MessageSendText', send)).isError).toBeFalsy();

    gw.gateway.drain();
    // With API_THREAD the thread hears of it by message: it turns within a moment.
    await waitFor(async () => (await gw.request('GET', '/api/health/ready', { key: null })).status === 503);

    const refused = await callTool('MessageSendText', { ...send, text: 'during the drain' });
    expect(refused.isError).toBe(true);
    expect(errorBody(refused)).toMatchObject({ code: 'SHUTTING_DOWN', retryable: true });
    const read = await callTool('SessionFindOne', { sessionId });
    expect([read.isError ?? false, read.structuredContent?.id]).toEqual([false, sessionId]);
    // Nothing of the refused send was stored: the refusal came before the route ran.
    const history = await gw.request('GET', `/api/sessions/${sessionId}/messages`);
    const texts = JSON.stringify(history.body);
    expect([texts.includes('before the drain'), texts.includes('during the drain')]).toEqual([true, false]);
  },
);
