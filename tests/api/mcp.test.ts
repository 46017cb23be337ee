/**
 * POST /mcp (issue 38) with the SDK's own client: absent unless MCP_ENABLED, stateless, the key before any method,
 * the tool set made from the routes (read-only by default), results in the REST shape with structuredContent, and
 * per call the scope, the per-key rate limit, the role and input validation answered in-band.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import {
  oneInstanceOnly,
  startTestGateway,
  type TestGateway,
  waitForStatus,
} from '#tests/helpers/test-gateway.js';
import { waitForAudit } from './sessions-support.js';

const READ_TOOLS = [
  'AutomationRuleFindAll',
  'AutomationRuleFindOne',
  'ContactCheckNumber',
  'ContactFindAll',
  'ContactFindOne',
  'ContactGetProfilePicture',
  'ContactResolvePhone',
  'GroupFindAll',
  'GroupFindOne',
  'GroupGetInviteCode',
  'LabelFindAll',
  'LabelFindOne',
  'LabelListChats',
  'LabelListForChat',
  'MessageGetReactions',
  'MessageList',
  'SessionFindAll',
  'SessionFindOne',
  'SessionGetChats',
  'SessionGetPresence',
  'SessionGetStats',
  'WebhookFindBySession',
  'WebhookFindOne',
  'WebhooksList',
];
const WRITE_TOOLS = [
  'ContactBlock',
  'ContactUnblock',
  'GroupAddParticipants',
  'GroupCreate',
  'GroupSetDescription',
  'GroupSetSubject',
  'LabelAddToChat',
  'LabelDelete',
  'LabelRemoveFromChat',
  'LabelUpsert',
  'MessageForward',
  'MessageReact',
  'MessageReply',
  'MessageSendAudio',
  'MessageSendContact',
  'MessageSendDocument',
  'MessageSendImage',
  'MessageSendLocation',
  'MessageSendSticker',
  'MessageSendTemplate',
  'MessageSendText',
  'MessageSendVideo',
  'SessionMarkChatRead',
  'SessionMarkChatUnread',
  'SessionSendChatState',
  'SessionSubscribePresence',
];

async function connect(gw: TestGateway, key: string): Promise<Client> {
  const client = new Client({ name: 'waygate-test', version: '1.0.0' });
  const transport = new StreamableHTTPClientTransport(new URL(`${gw.url}/mcp`), {
    requestInit: { headers: { authorization: `Bearer ${key}` } },
  });
  await client.connect(transport);
  return client;
}

/** One tool call as `key` by a client of its own (connected, then closed once it answered). */
async function callOnce(
  gw: TestGateway,
  key: string,
  name: string,
  args: Record<string, unknown>,
): Promise<CallToolResult> {
  const client = await connect(gw, key);
  try {
    return (await client.callTool({ name, arguments: args })) as CallToolResult;
  } finally {
    await client.close();
  }
}

/** A raw request to /mcp (the gateway's test client checks answers against the OpenAPI document, which has no /mcp). */
async function raw(gw: TestGateway, method: string, headers: Record<string, string> = {}, body?: unknown) {
  const res = await fetch(`${gw.url}/mcp`, {
    method,
    headers: {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      ...headers,
    },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const text = await res.text();
  return { status: res.status, headers: res.headers, body: text ? (JSON.parse(text) as unknown) : undefined };
}

const errorOf = (result: CallToolResult) => {
  expect(result.isError).toBe(true);
  const [first] = result.content;
  return JSON.parse(first?.type === 'text' ? first.text : '{}') as { code: string; message: string };
};

describe('POST /mcp', () => {
  it('is absent (404) without MCP_ENABLED', async () => {
    const gw = await startTestGateway();
    const res = await raw(gw, 'POST', { 'x-api-key': gw.adminKey }, {});
    expect(res.status).toBe(404);
    await gw.close();
  });

  describe('read-only by default', () => {
    let gw: TestGateway;
    let sessionId: string;
    beforeAll(async () => {
      // On the engine without the optional capabilities (test-core), so that one gateway also shows an operation the
      // engine lacks answered in-band: under api-offline every gateway of other settings starts a serverless offline.
      gw = await startTestGateway({ MCP_ENABLED: 'true', MCP_RATE_LIMIT_MAX: '8', ENGINE: 'test-core' });
      sessionId = (await gw.createSession()).id;
    });
    afterAll(() => gw.close());

    it.each(['GET', 'DELETE'])('answers %s with 405 and Allow: POST', async (method) => {
      const res = await raw(gw, method, { 'x-api-key': gw.adminKey });
      expect(res.status).toBe(405);
      expect(res.headers.get('allow')).toBe('POST');
      expect(res.body).toEqual({
        jsonrpc: '2.0',
        error: { code: -32000, message: 'Method not allowed.' },
        id: null,
      });
    });

    it('refuses a request without a key with 401 and WWW-Authenticate: Bearer, initialize included', async () => {
      const initialize = { jsonrpc: '2.0', id: 1, method: 'initialize', params: {} };
      const res = await raw(gw, 'POST', {}, initialize);
      expect(res.status).toBe(401);
      expect(res.headers.get('www-authenticate')).toBe('Bearer');
    });

    it('initializes and lists the read tools only, each with an output schema', async () => {
      const client = await connect(gw, gw.adminKey);
      expect(client.getServerVersion()?.name).toBe('waygate');
      const { tools } = await client.listTools();
      expect(tools.map((tool) => tool.name).sort()).toEqual(READ_TOOLS);
      for (const tool of tools) expect(tool.outputSchema?.type).toBe('object');
      await client.close();
    });

    it('answers SessionFindOne with the REST body as structuredContent, matching its output schema', async () => {
      // The SDK client validates structuredContent against the tool's outputSchema and throws when it differs.
      const result = await callOnce(gw, gw.adminKey, 'SessionFindOne', { sessionId });
      const rest = await gw.request('GET', `/api/sessions/${sessionId}`);
      expect(result.isError).toBeFalsy();
      expect(result.structuredContent).toEqual(rest.body);
    });

    it('names the bad field of an invalid input in-band', async () => {
      const result = await callOnce(gw, gw.adminKey, 'MessageList', { sessionId, limit: 'many' });
      expect(errorOf(result)).toMatchObject({ code: 'VALIDATION_FAILED' });
      expect(errorOf(result).message).toContain('limit');
    });

    it('answers an operation the engine lacks with its 501 in-band', async () => {
      // The engine lacks the capability whatever the session's state: a created session will do.
      const result = await callOnce(gw, gw.adminKey, 'SessionGetChats', { sessionId });
      expect(errorOf(result)).toMatchObject({ code: 'ENGINE_UNSUPPORTED' });
    });

    it('refuses a key scoped to another session in-band', async () => {
      const other = (await gw.createSession()).id;
      const { key } = await gw.createKey({ name: 'scoped', role: 'operator', allowedSessions: [other] });
      const result = await callOnce(gw, key, 'SessionFindOne', { sessionId });
      expect(errorOf(result)).toMatchObject({ code: 'FORBIDDEN_SESSION' });
      // Audited as REST audits it, marked as coming from the MCP endpoint with the tool's name.
      const [audited] = await waitForAudit(gw, 'api_key_auth_failed', sessionId);
      expect(audited?.metadata).toMatchObject({ via: 'mcp', tool: 'SessionFindOne' });
    });

    oneInstanceOnly(
      it,
      "a key's MCP limit is counted in each instance of the function (README), and serverless offline starts a " +
        "second one whenever a request overlaps another (the SDK client's GET for a stream, answered 405)",
    )('limits tool calls per key (MCP_RATE_LIMIT_MAX)', async () => {
      const { key } = await gw.createKey({ name: 'limited', role: 'viewer' });
      const client = await connect(gw, key);
      const codes: (string | null)[] = [];
      for (let i = 0; i < 9; i++) {
        const result = (await client.callTool({ name: 'SessionGetStats', arguments: {} })) as CallToolResult;
        codes.push(result.isError ? errorOf(result).code : null);
      }
      expect(codes.slice(0, 8)).toEqual(Array(8).fill(null));
      expect(codes[8]).toBe('RATE_LIMITED');
      await client.close();
    });
  });

  describe('with MCP_READONLY=false', () => {
    let gw: TestGateway;
    let sessionId: string;
    beforeAll(async () => {
      gw = await startTestGateway({ MCP_ENABLED: 'true', MCP_READONLY: 'false' });
      sessionId = (await gw.createSession()).id;
      gw.network.storeCredentials(sessionId, { phone: '15550002222', pushName: 'Me' });
      await gw.request('POST', `/api/sessions/${sessionId}/start`);
      await waitForStatus(gw, sessionId, 'ready');
    });
    afterAll(() => gw.close());

    it('lists every tool: the snapshot of the tool-name set', async () => {
      const client = await connect(gw, gw.adminKey);
      const { tools } = await client.listTools();
      expect(tools.map((tool) => tool.name).sort()).toEqual([...READ_TOOLS, ...WRITE_TOOLS].sort());
      await client.close();
    });

    it('sends a text through MessageSendText, as REST would', async () => {
      const result = await callOnce(gw, gw.adminKey, 'MessageSendText', {
        sessionId,
        chatId: '15557770001@c.us',
        text: 'hello from an agent',
      });
      expect(result.isError).toBeFalsy();
      expect(result.structuredContent).toMatchObject({ chatId: '15557770001@c.us' });
      const history = await gw.request('GET', `/api/sessions/${sessionId}/messages`);
      expect(JSON.stringify(history.body)).toContain('hello from an agent');
    });

    it('refuses a viewer a write tool in-band', async () => {
      const { key } = await gw.createKey({ name: 'viewer', role: 'viewer' });
      const result = await callOnce(gw, key, 'MessageSendText', {
        sessionId,
        chatId: '15557770001@c.us',
        text: 'nope',
      });
      expect(errorOf(result)).toMatchObject({ code: 'FORBIDDEN_ROLE' });
    });
  });
});
