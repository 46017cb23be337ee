/**
 * Chat allowlists of API keys (`allowedChats`, issue 38 item 5) on a real gateway in each deployment mode: what a
 * key's list takes and stores, and, for a key limited to chats, every engine operation row (generated from the rows:
 * addressed chats allowed or 403 FORBIDDEN_CHAT, lists filtered, the rest 403 FORBIDDEN_CHAT_RESTRICTED), the route
 * modules that address or list chats (sends, forward, messages, search, chats), the routes that refuse such a key
 * (key management, webhooks, lifecycle), the audit of a refusal, and the same refusals over MCP.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { EngineOperationRow } from '#shared/domain/engine-operations/engine-operation.js';
import { ENGINE_OPERATION_ROWS } from '#shared/domain/engine-operations/engine-operations.js';
import { operationRequest, seedOperationExamples } from '#tests/helpers/engine-operation-requests.js';
import { connectMcp, toolError } from '#tests/helpers/mcp-client.js';
import { startTestGateway, type TestGateway, waitFor } from '#tests/helpers/test-gateway.js';
import { auditOf, expectError, expectValidation, linkedSession } from './sessions-support.js';

const OWN = '15550001111';
const ALICE = '15557770001@c.us';
const BOB = '15557770002@c.us';
const NOBODY = '15559990000@c.us';

describe('API keys limited to chats (allowedChats)', () => {
  let gw: TestGateway;
  let sessionId: string;
  const keyFor = new Map<string, string>();

  /** A key of `role` limited to `chats` (made once per list and role). */
  async function limitedKey(chats: readonly string[], role = 'admin'): Promise<string> {
    const name = `${role}:${chats.join(',')}`;
    const known = keyFor.get(name);
    if (known) return known;
    const { key } = await gw.createKey({ name: `chats ${keyFor.size}`, role, allowedChats: chats });
    keyFor.set(name, key);
    return key;
  }
  const sendText = (chatId: string, key?: string) =>
    gw.request('POST', `/api/sessions/${sessionId}/messages/send-text`, {
      body: { chatId, text: `to ${chatId}` },
      ...(key ? { key } : {}),
    });
  const chatsOf = (res: { body: unknown }) =>
    (res.body as { messages: { chatId: string }[] }).messages.map((message) => message.chatId);

  beforeAll(async () => {
    gw = await startTestGateway({ MCP_ENABLED: 'true', MCP_READONLY: 'false' });
    gw.network.directory.register('15550002222', '880001', 'https://pictures.example/a.jpg');
    gw.network.directory.register('15557770003', '880003', null);
    sessionId = (await linkedSession(gw, {}, { phone: OWN, pushName: 'Me' })).id;
    // People the lists can show: two contacts in the address book, one blocked.
    gw.network.directory.save(sessionId, '15550002222', 'Alice Smith');
    gw.network.directory.save(sessionId, '15557770003', 'Carol');
    gw.network.directory.blocked(sessionId).add('15557770003');
    for (const chatId of [ALICE, BOB]) expect((await sendText(chatId)).status).toBe(201);
  });
  afterAll(async () => {
    await gw?.close();
  });

  describe('the list a key takes', () => {
    it('stores bare phone numbers as <number>@c.us and answers the list on reads', async () => {
      const created = await gw.request<{ id: string; allowedChats: string[] }>('POST', '/api/auth/api-keys', {
        body: {
          name: 'agent',
          role: 'operator',
          allowedChats: ['+15557770001', '120363025246125411@g.us', '880001@lid'],
        },
      });
      expect(created.status).toBe(201);
      const stored = ['15557770001@c.us', '120363025246125411@g.us', '880001@lid'];
      expect(created.body.allowedChats).toEqual(stored);
      const read = await gw.request('GET', `/api/auth/api-keys/${created.body.id}`);
      expect(read.body).toMatchObject({ allowedChats: stored });
      const cleared = await gw.request('PUT', `/api/auth/api-keys/${created.body.id}`, {
        body: { allowedChats: [] },
      });
      expect(cleared.body).toMatchObject({ allowedChats: null });
      const set = await gw.request('PUT', `/api/auth/api-keys/${created.body.id}`, {
        body: { allowedChats: [BOB] },
      });
      expect(set.body).toMatchObject({ allowedChats: [BOB] });
      const nulled = await gw.request('PUT', `/api/auth/api-keys/${created.body.id}`, {
        body: { allowedChats: null },
      });
      expect(nulled.body).toMatchObject({ allowedChats: null });
    });

    it('refuses an id that is no chat, a repeated chat (once normalized) and more than 100 chats', async () => {
      const create = (allowedChats: unknown) =>
        gw.request('POST', '/api/auth/api-keys', { body: { name: 'bad list', allowedChats } });
      expectValidation(await create([ALICE, 'not-a-chat']), 'body.allowedChats.1');
      expectValidation(await create(['15557770001', ALICE]), 'body.allowedChats');
      const many = Array.from({ length: 101 }, (_, i) => `${15557000000 + i}@c.us`);
      expectValidation(await create(many), 'body.allowedChats');
      expectValidation(await create('15557770001'), 'body.allowedChats');
    });

    it('does not count a chat-limited admin as the usable admin the last-admin guard keeps', async () => {
      const keys = await gw.request<{ id: string; role: string; allowedChats: unknown }[]>(
        'GET',
        '/api/auth/api-keys',
      );
      const [only, ...others] = keys.body.filter((key) => key.role === 'admin' && key.allowedChats === null);
      expect(others).toEqual([]);
      const refused = await gw.request('PUT', `/api/auth/api-keys/${only?.id}`, {
        body: { allowedChats: [ALICE] },
      });
      expectError(refused, 409, 'LAST_ADMIN_KEY');
      expect(JSON.stringify(refused.body)).toContain('allowedChats');
    });
  });

  describe('every engine operation row', () => {
    const rows = ENGINE_OPERATION_ROWS.map((row) => [row.name, row] as const);
    const send = (row: EngineOperationRow, key: string) => {
      const { method, path, body } = operationRequest(row, sessionId);
      return gw.request(method, path, { ...(body === undefined ? {} : { body }), key });
    };
    /** The chats the row's example addresses, by the fields its `chats` names. */
    const addressed = (row: EngineOperationRow) => {
      const input = row.example.input as Record<string, unknown>;
      const chats = row.chats;
      return typeof chats === 'object' && 'addresses' in chats
        ? chats.addresses.map((field) => String(input[field]))
        : [];
    };

    it.each(rows)('%s: as its chats declaration says', async (_, row) => {
      seedOperationExamples(gw.network, sessionId, OWN);
      const chats = row.chats;
      if (chats === undefined) {
        expectError(await send(row, await limitedKey([ALICE])), 403, 'FORBIDDEN_CHAT_RESTRICTED');
      } else if (chats === 'none') {
        expect((await send(row, await limitedKey([NOBODY]))).status).toBe(row.http.success);
      } else if ('addresses' in chats) {
        expectError(await send(row, await limitedKey([NOBODY])), 403, 'FORBIDDEN_CHAT');
        seedOperationExamples(gw.network, sessionId, OWN);
        expect((await send(row, await limitedKey(addressed(row)))).status).toBe(row.http.success);
      } else {
        const chatOf = (chats as { listed: (item: unknown) => string }).listed;
        const whole = (await send(row, gw.adminKey)).body as unknown[];
        const first = whole[0];
        if (first === undefined) throw new Error(`${row.name}: the seeded example lists nothing to filter`);
        const kept = await send(row, await limitedKey([chatOf(first)]));
        expect(kept.body).toEqual(whole.filter((item) => chatOf(item) === chatOf(first)));
        expect((await send(row, await limitedKey([NOBODY]))).body).toEqual([]);
      }
    });
  });

  describe('the routes that address or list chats', () => {
    it('sends to a chat of the list and refuses any other, audited', async () => {
      const key = await limitedKey([ALICE], 'operator');
      expect((await sendText(ALICE, key)).status).toBe(201);
      expect((await sendText('15557770001', key)).status).toBe(400);
      const refused = expectError(await sendText(BOB, key), 403, 'FORBIDDEN_CHAT');
      expect(refused.message).toContain(BOB);
      await waitFor(async () =>
        (await auditOf(gw, 'api_key_auth_failed', sessionId)).some(
          (row) => row.statusCode === 403 && row.errorMessage?.includes(BOB),
        ),
      );
    });

    it('forwards only between chats of the list', async () => {
      const key = await limitedKey([ALICE], 'operator');
      const forward = (fromChatId: string, toChatId: string) =>
        gw.request('POST', `/api/sessions/${sessionId}/messages/forward`, {
          body: { fromChatId, toChatId, messageId: 'UNKNOWN-ID' },
          key,
        });
      expectError(await forward(ALICE, BOB), 403, 'FORBIDDEN_CHAT');
      expectError(await forward(BOB, ALICE), 403, 'FORBIDDEN_CHAT');
      expect((await forward(ALICE, ALICE)).status).toBe(404);
    });

    it('lists messages and chats of the list only, and refuses a chatId outside it', async () => {
      const key = await limitedKey([ALICE], 'viewer');
      const all = await gw.request('GET', `/api/sessions/${sessionId}/messages`);
      expect(new Set(chatsOf(all))).toEqual(new Set([ALICE, BOB]));
      const mine = await gw.request('GET', `/api/sessions/${sessionId}/messages`, { key });
      expect(chatsOf(mine).length).toBeGreaterThan(0);
      expect(new Set(chatsOf(mine))).toEqual(new Set([ALICE]));
      expect(mine.body).toMatchObject({ total: chatsOf(mine).length });
      expectError(
        await gw.request('GET', `/api/sessions/${sessionId}/messages?chatId=${BOB}`, { key }),
        403,
        'FORBIDDEN_CHAT',
      );
      const history = (chatId: string) =>
        gw.request('GET', `/api/sessions/${sessionId}/messages/${chatId}/history`, { key });
      expect(new Set(chatsOf(await history(ALICE)))).toEqual(new Set([ALICE]));
      expectError(await history(BOB), 403, 'FORBIDDEN_CHAT');
      const chats = await gw.request<{ id: string }[]>('GET', `/api/sessions/${sessionId}/chats`, { key });
      expect(chats.body.map((chat) => chat.id)).toEqual([ALICE]);
      const both = await limitedKey([BOB, ALICE], 'viewer');
      const two = await gw.request<{ id: string }[]>(
        'GET',
        `/api/sessions/${sessionId}/chats?limit=1&offset=1`,
        { key: both },
      );
      const whole = await gw.request<{ id: string }[]>('GET', `/api/sessions/${sessionId}/chats`, {
        key: both,
      });
      expect(whole.body.map((chat) => chat.id).sort()).toEqual([ALICE, BOB].sort());
      expect(two.body).toEqual([whole.body[1]]);
    });

    it('searches the one chat of a key, and asks a key of several to name one', async () => {
      const search = (key: string, chatId?: string) =>
        gw.request(
          'GET',
          `/api/sessions/${sessionId}/messages/search?q=to${chatId ? `&chatId=${chatId}` : ''}`,
          { key },
        );
      const one = await search(await limitedKey([ALICE], 'viewer'));
      expect(one.status).toBe(200);
      expect(new Set(chatsOf(one))).toEqual(new Set([ALICE]));
      const several = await limitedKey([BOB, ALICE], 'viewer');
      expectError(await search(several), 403, 'FORBIDDEN_CHAT');
      expect(new Set(chatsOf(await search(several, BOB)))).toEqual(new Set([BOB]));
      expectError(await search(await limitedKey([ALICE], 'viewer'), BOB), 403, 'FORBIDDEN_CHAT');
    });

    it('reads the session and validates the key, and refuses what concerns no chat of its own', async () => {
      const key = await limitedKey([ALICE]);
      expect((await gw.request('GET', `/api/sessions/${sessionId}`, { key })).status).toBe(200);
      expect((await gw.request('POST', '/api/auth/validate', { key })).status).toBe(200);
      for (const [method, path] of [
        ['GET', '/api/auth/api-keys'],
        ['GET', `/api/sessions/${sessionId}/webhooks`],
        ['GET', '/api/webhooks'],
        ['GET', `/api/sessions/${sessionId}/automation-rules`],
        ['POST', `/api/sessions/${sessionId}/stop`],
        ['GET', '/api/audit'],
        ['GET', `/api/sessions/${sessionId}/messages/batch/00000000-0000-4000-8000-000000000000`],
      ] as const) {
        expectError(await gw.request(method, path, { key }), 403, 'FORBIDDEN_CHAT_RESTRICTED');
      }
    });
  });

  describe('over MCP', () => {
    it('sends to a chat of the list, refuses another in-band and lists the key’s chats only', async () => {
      const client = await connectMcp(gw, await limitedKey([ALICE], 'operator'));
      const call = async (name: string, args: Record<string, unknown>) =>
        (await client.callTool({ name, arguments: { sessionId, ...args } })) as CallToolResult;
      expect((await call('MessageSendText', { chatId: ALICE, text: 'agent hi' })).isError).toBeFalsy();
      expect(toolError(await call('MessageSendText', { chatId: BOB, text: 'agent hi' }))).toMatchObject({
        code: 'FORBIDDEN_CHAT',
      });
      expect(toolError(await call('WebhookFindBySession', {}))).toMatchObject({
        code: 'FORBIDDEN_CHAT_RESTRICTED',
      });
      const listed = await call('MessageList', {});
      expect(listed.isError).toBeFalsy();
      const { messages } = listed.structuredContent as { messages: { chatId: string }[] };
      expect(new Set(messages.map((message) => message.chatId))).toEqual(new Set([ALICE]));
      await client.close();
    });
  });
});
