/**
 * POST /mcp (issue 38) with the SDK's own client: absent unless MCP_ENABLED, stateless, the key before any method,
 * the tool set made from the routes (read-only by default), results in the REST shape with structuredContent, and
 * per call the scope, the per-key rate limit, the role and input validation answered in-band.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { aMessage } from '#tests/helpers/builders.js';
import { withGatewayDataStore } from '#tests/helpers/gateway-data-store.js';
import { connectMcp, toolError } from '#tests/helpers/mcp-client.js';
import {
  oneInstanceOnly,
  startTestGateway,
  type TestGateway,
  waitForStatus,
} from '#tests/helpers/test-gateway.js';
import { READ_TOOLS, WRITE_TOOLS } from './mcp-support.js';
import { waitForAudit } from './sessions-support.js';

const JSON_HEADERS = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };

/** One tool call as `key` by a client of its own (connected, then closed once it answered). */
async function callOnce(
  gw: TestGateway,
  key: string,
  name: string,
  args: Record<string, unknown>,
): Promise<CallToolResult> {
  const client = await connectMcp(gw, key);
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

/** A JSON-RPC message posted to /mcp as an SDK client posts it (`contentType` aside): the answer, its date left out. */
async function post(gw: TestGateway, key: string, message: unknown, contentType = 'application/json') {
  const res = await fetch(`${gw.url}/mcp`, {
    method: 'POST',
    headers: { 'x-api-key': key, 'content-type': contentType, accept: 'application/json, text/event-stream' },
    body: JSON.stringify(message),
  });
  const headers = Object.fromEntries([...res.headers].filter(([name]) => name !== 'date'));
  return { status: res.status, headers, body: await res.text() };
}

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
      gw = await startTestGateway({
        MCP_ENABLED: 'true',
        MCP_RATE_LIMIT_MAX: '8',
        MCP_ALLOWED_ORIGINS: 'https://agent.example.com',
        ENGINE: 'test-core',
      });
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

    it('refuses a browser Origin that is neither a loopback page nor listed with 403, before the key', async () => {
      const ping = { jsonrpc: '2.0', id: 1, method: 'ping' };
      const from = (origin: string) => raw(gw, 'POST', { 'x-api-key': gw.adminKey, origin }, ping);
      for (const origin of ['http://evil.example.com', 'null', 'https://agent.example.com.evil.example'])
        expect(await from(origin)).toMatchObject({
          status: 403,
          body: { jsonrpc: '2.0', error: { code: -32000, message: 'Origin not allowed' }, id: null },
        });
      expect((await raw(gw, 'POST', { origin: 'http://evil.example.com' }, ping)).status).toBe(403);
      const reaches = async (headers: Record<string, string>) =>
        (
          await fetch(`${gw.url}/mcp`, {
            method: 'POST',
            headers: { ...JSON_HEADERS, ...headers },
            body: JSON.stringify(ping),
          })
        ).status;
      for (const origin of ['https://agent.example.com', 'http://localhost:8080', 'http://127.0.0.1:3000'])
        expect(await reaches({ 'x-api-key': gw.adminKey, origin })).toBe(200);
      expect(await reaches({ 'x-api-key': gw.adminKey })).toBe(200);
    });

    it('refuses a request without a key with 401 and WWW-Authenticate: Bearer, initialize included', async () => {
      const initialize = { jsonrpc: '2.0', id: 1, method: 'initialize', params: {} };
      const res = await raw(gw, 'POST', {}, initialize);
      expect(res.status).toBe(401);
      expect(res.headers.get('www-authenticate')).toBe('Bearer');
    });

    it('initializes and lists the read tools only, each with an output schema', async () => {
      const client = await connectMcp(gw, gw.adminKey);
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

    it('answers MessageHistory with the REST body as structuredContent, valid under its output schema', async () => {
      const chatId = '15557770001@c.us';
      const photo = aMessage({
        sessionId,
        chatId,
        from: chatId,
        direction: 'incoming',
        type: 'image',
        body: 'a photo',
        mediaPath: `media/${sessionId}/photo.jpg`,
        mediaMimetype: 'image/jpeg',
        metadata: { media: { mimetype: 'image/jpeg', sizeBytes: 10 } },
      });
      await withGatewayDataStore(gw, (data) => data.messages.insert(photo));
      const client = await connectMcp(gw, gw.adminKey);
      const { tools } = await client.listTools();
      const outputSchema = tools.find((tool) => tool.name === 'MessageHistory')?.outputSchema;
      // An agent may pass the flag as a boolean: it travels as the query's text.
      const result = (await client.callTool({
        name: 'MessageHistory',
        arguments: { sessionId, chatId, limit: 10, includeMedia: true },
      })) as CallToolResult;
      const rest = await gw.request(
        'GET',
        `/api/sessions/${sessionId}/messages/${chatId}/history?limit=10&includeMedia=true`,
      );
      expect(result.isError).toBeFalsy();
      expect(result.structuredContent).toEqual(rest.body);
      expect(result.structuredContent).toMatchObject({
        chatId,
        total: 1,
        messages: [{ id: photo.id, mediaMimetype: 'image/jpeg' }],
      });
      const ajv = new Ajv2020({ strict: false, allErrors: true });
      addFormats.default(ajv);
      if (!outputSchema) throw new Error('MessageHistory is listed without an output schema');
      const validate = ajv.compile(outputSchema);
      expect([validate(result.structuredContent), validate.errors ?? null]).toEqual([true, null]);
      await client.close();
    });

    it('names the bad field of an invalid input in-band', async () => {
      const result = await callOnce(gw, gw.adminKey, 'MessageList', { sessionId, limit: 'many' });
      expect(toolError(result)).toMatchObject({ code: 'VALIDATION_FAILED' });
      expect(toolError(result).message).toContain('limit');
    });

    it('answers an operation the engine lacks with its 501 in-band', async () => {
      // The engine lacks the capability whatever the session's state: a created session will do.
      const result = await callOnce(gw, gw.adminKey, 'SessionGetChats', { sessionId });
      expect(toolError(result)).toMatchObject({ code: 'ENGINE_UNSUPPORTED' });
    });

    it('answers a plain request as the SDK transport answers it (single-request.ts)', async () => {
      // The literal content type takes the path without the transport; another spelling goes through the transport.
      const { key } = await gw.createKey({ name: 'paths', role: 'viewer' });
      // A result, an in-band error, protocol errors (unknown tool, invalid params, unknown method), a list, a ping.
      const calls = [
        { name: 'SessionFindOne', arguments: { sessionId } },
        { name: 'MessageList', arguments: { sessionId, limit: 'many' } },
        { name: 'NoSuchTool', arguments: {} },
        { arguments: {} },
      ].map((params, id) => ({ jsonrpc: '2.0', id, method: 'tools/call', params }));
      const others = ['tools/list', 'ping', 'prompts/list'].map((method) => ({
        jsonrpc: '2.0',
        id: method,
        method,
      }));
      for (const message of [...calls, ...others]) {
        const plain = await post(gw, key, message);
        expect(plain.body).toMatch(/^event: message\ndata: /);
        expect(await post(gw, key, message, 'application/json; charset=utf-8')).toEqual(plain);
      }
    });

    it('keeps concurrent plain requests apart, though their clients gave them the same id', async () => {
      // They overlap on the shared server where a call awaits its store (the aws mode's DynamoDB); an embedded read
      // of SQLite answers before the next request comes in.
      const other = (await gw.createSession()).id;
      const { key: any } = await gw.createKey({ name: 'any-session', role: 'viewer' });
      const { key: scoped } = await gw.createKey({
        name: 'other-only',
        role: 'viewer',
        allowedSessions: [other],
      });
      const calls = [any, scoped, any, scoped].flatMap((key) =>
        [sessionId, other].map((id) => ({ key, id })),
      );
      const answers = await Promise.all(
        calls.map(({ key, id }) => {
          const params = { name: 'SessionFindOne', arguments: { sessionId: id } };
          return post(gw, key, { jsonrpc: '2.0', id: 1, method: 'tools/call', params });
        }),
      );
      const outcomes = answers.map(({ body }) => {
        const data = JSON.parse(body.split('\n')[1]?.slice('data: '.length) ?? '{}');
        const result = data.result as CallToolResult;
        return {
          id: data.id,
          session: result.isError ? toolError(result).code : result.structuredContent?.id,
        };
      });
      const expected = ({ key, id }: { key: string; id: string }) =>
        key === scoped && id === sessionId ? 'FORBIDDEN_SESSION' : id;
      expect(outcomes).toEqual(calls.map((call) => ({ id: 1, session: expected(call) })));
    });

    it('refuses a key scoped to another session in-band', async () => {
      const other = (await gw.createSession()).id;
      const { key } = await gw.createKey({ name: 'scoped', role: 'operator', allowedSessions: [other] });
      const result = await callOnce(gw, key, 'SessionFindOne', { sessionId });
      expect(toolError(result)).toMatchObject({ code: 'FORBIDDEN_SESSION' });
      // Audited as REST audits it, marked as coming from the MCP endpoint with the tool's name.
      const [audited] = await waitForAudit(gw, 'api_key_auth_failed', sessionId);
      expect(audited?.metadata).toMatchObject({ via: 'mcp', tool: 'SessionFindOne' });
    });

    oneInstanceOnly(
      it,
      "a key's MCP limit is counted in each instance of the function (docs/configuration.md), and serverless offline starts a " +
        "second one whenever a request overlaps another (the SDK client's GET for a stream, answered 405)",
    )('limits tool calls per key (MCP_RATE_LIMIT_MAX)', async () => {
      const { key } = await gw.createKey({ name: 'limited', role: 'viewer' });
      const client = await connectMcp(gw, key);
      const codes: (string | null)[] = [];
      for (let i = 0; i < 9; i++) {
        const result = (await client.callTool({ name: 'SessionGetStats', arguments: {} })) as CallToolResult;
        codes.push(result.isError ? toolError(result).code : null);
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
      const client = await connectMcp(gw, gw.adminKey);
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
      expect(toolError(result)).toMatchObject({ code: 'FORBIDDEN_ROLE' });
    });
  });
});
