/**
 * POST /mcp (issue 38) end to end: the MCP SDK's own client against a gateway whose Baileys engine is linked to the
 * simulated network, every tool held to what the simulator's phones show. A text an agent sends with MessageSendText
 * is decrypted by the contact's phone, and the stored row the tool answered turns delivered on the contact's receipt;
 * the contact's answer from its phone is what MessageList and SessionGetChats read back, as the account's phone shows
 * the chat; ContactCheckNumber and ContactFindOne answer what the network holds, read live.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { ChatSummary } from '#shared/domain/chat.js';
import type { MessageView } from '#shared/domain/message.js';
import { phoneSequence } from '#tests/helpers/link-session.js';
import { connectMcp, toolError } from '#tests/helpers/mcp-client.js';
import type { SimulatorProcess } from '#tests/helpers/simulator-process.js';
import { type TestGateway, waitFor } from '#tests/helpers/test-gateway.js';
import { startSimulatedSession } from './sim-session.js';

const nextPhone = phoneSequence('1561');
const base = `1561${String(process.pid % 1000).padStart(3, '0')}`;
const ALICE = `${base}9000`;
/** A number the network does not know. */
const UNKNOWN = `${base}9999`;
const aliceChat = `${ALICE}@c.us`;

describe('MCP tools with the Baileys engine against the simulator', () => {
  let sim: SimulatorProcess;
  let gw: TestGateway;
  let sessionId: string;
  let phone: string;
  let aliceLid: string;
  let client: Client;
  /** The row MessageSendText answered (test 1), read back in history (test 2). */
  let sent: MessageView;

  beforeAll(async () => {
    ({ sim, gw, sessionId, phone } = await startSimulatedSession(nextPhone(), [ALICE], {
      MCP_ENABLED: 'true',
      MCP_READONLY: 'false',
    }));
    aliceLid = (await sim.admin.get<{ lid: string }>(`/contacts/${ALICE}`)).body.lid;
    client = await connectMcp(gw, gw.adminKey);
  }, 40_000);
  afterAll(async () => {
    await client?.close();
    await gw?.close();
    await sim?.stop();
  });

  /** Calls tool `name` on the session; answers its structuredContent, failing with the in-band error if any. */
  const call = async <T>(name: string, args: Record<string, unknown>): Promise<T> => {
    const result = (await client.callTool({ name, arguments: { sessionId, ...args } })) as CallToolResult;
    expect([name, result.isError ? result.content : 'ok']).toEqual([name, 'ok']);
    return result.structuredContent as T;
  };
  const history = async () =>
    (await gw.request('GET', `/api/sessions/${sessionId}/messages?chatId=${encodeURIComponent(aliceChat)}`))
      .body.messages as MessageView[];

  it('MessageSendText: the contact’s phone decrypts the text; the answered row turns delivered', async () => {
    // The contact's phone acknowledges delivery (not reading), so the row settles on delivered.
    await sim.admin.ok(`/contacts/${ALICE}/config`, { autoDeliver: true, receiptDelayMs: 50 });
    sent = await call<MessageView>('MessageSendText', { chatId: aliceChat, text: 'hello from an agent' });
    expect(sent).toMatchObject({
      sessionId,
      chatId: aliceChat,
      direction: 'outgoing',
      type: 'text',
      body: 'hello from an agent',
      waMessageId: expect.any(String),
    });
    expect(['pending', 'sent']).toContain(sent.status);

    const atPhone = await sim.admin.receivedOne(ALICE, sent.waMessageId as string, 15_000);
    expect(atPhone).toMatchObject({ type: 'text', text: 'hello from an agent' });
    expect(atPhone.from).toContain(phone);

    const delivered = await waitFor(async () => {
      const row = (await history()).find((m) => m.id === sent.id);
      return row?.status === 'delivered' ? row : null;
    }, 15_000);
    expect(delivered).toMatchObject({ waMessageId: sent.waMessageId, body: sent.body, chatId: sent.chatId });
  }, 30_000);

  it('MessageList and SessionGetChats: the contact’s answer from its phone, with its sender', async () => {
    const { id } = await sim.admin.ok<{ id: string }>(`/contacts/${ALICE}/messages`, {
      to: phone,
      text: 'hello agent, got it',
    });
    const page = await waitFor(async () => {
      const answer = await call<{ messages: MessageView[]; total: number }>('MessageList', {
        chatId: aliceChat,
      });
      return answer.messages.some((m) => m.waMessageId === id) ? answer : null;
    }, 15_000);
    // Newest first: the answer, then the agent's text.
    expect(page.total).toBe(2);
    expect(page.messages[0]).toMatchObject({
      waMessageId: id,
      direction: 'incoming',
      from: aliceChat,
      body: 'hello agent, got it',
      sender: { phone: aliceChat, lid: aliceLid },
    });
    expect(page.messages[1]).toMatchObject({ id: sent.id, direction: 'outgoing', status: 'delivered' });
    // The contact's phone has the gateway's delivery receipt for its answer.
    const answered = await waitFor(async () => {
      const message = (await sim.admin.sent(ALICE)).find((m) => m.id === id);
      return message?.status === 'delivered' ? message : null;
    }, 15_000);
    expect(answered.text).toBe('hello agent, got it');

    const { result: chats } = await call<{ result: ChatSummary[] }>('SessionGetChats', {});
    const chat = chats.find((c) => c.id === aliceChat);
    expect(chat).toMatchObject({
      kind: 'individual',
      lastMessage: { id, fromMe: false, type: 'text', body: 'hello agent, got it' },
    });
    // The account's own phone shows the same chat: the same last message, as many unread.
    const onPhone = await sim.admin.chatWhen(phone, `${ALICE}@s.whatsapp.net`, (c) => c.unreadCount > 0);
    expect([onPhone.lastMessage?.key.id, onPhone.unreadCount]).toEqual([id, chat?.unreadCount]);
  }, 30_000);

  it('ContactCheckNumber and ContactFindOne answer what the network holds, read live', async () => {
    expect(await call('ContactCheckNumber', { number: ALICE })).toEqual({
      number: ALICE,
      exists: true,
      whatsappId: aliceChat,
      lid: aliceLid,
    });
    expect(await call('ContactCheckNumber', { number: UNKNOWN })).toEqual({
      number: UNKNOWN,
      exists: false,
      whatsappId: null,
      lid: null,
    });

    const contact = await call<{ profilePicUrl: string | null }>('ContactFindOne', { contactId: aliceChat });
    expect(contact).toMatchObject({ id: aliceChat, number: ALICE, lid: aliceLid, isMyContact: true });
    expect(contact.profilePicUrl).toMatch(new RegExp(`/media/profile/${ALICE}\\.png`));
    // The contact takes its picture down on its phone: the next read has none.
    await sim.admin.ok(`/contacts/${ALICE}/config`, { picture: 'none' });
    expect(await call('ContactFindOne', { contactId: aliceLid })).toMatchObject({
      id: aliceChat,
      profilePicUrl: null,
    });

    const unknown = (await client.callTool({
      name: 'ContactFindOne',
      arguments: { sessionId, contactId: `${UNKNOWN}@c.us` },
    })) as CallToolResult;
    expect(toolError(unknown).code).toBe('NOT_FOUND');
  }, 30_000);
});
