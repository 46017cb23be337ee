/**
 * The chat routes on the test engine (the Baileys engine against the simulator: tests/e2e/baileys-chats.test.ts):
 * the chat list the host keeps from stored messages and the engine's reports, and each chat operation as the
 * account's phone sees it (the test network's chats). What every engine operation answers for access, state and
 * capability is tested from the rows (engine-operations.test.ts, engine-capabilities.test.ts).
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { ChatSummary } from '#shared/domain/chat.js';
import { startTestGateway, type TestGateway, waitFor } from '#tests/helpers/test-gateway.js';
import { expectError, expectValidation, linkedSession } from './sessions-support.js';

const OWN = '15550007777';
const ALICE = '15550002222@c.us';
const BOB = '15550003333@c.us';
const GROUP = '120363025246125411-1690000000@g.us';
const STRANGER = '15550009999@c.us';

describe('chats', () => {
  let gw: TestGateway;
  let sessionId: string;
  // Received messages carry times before the send below, as they would.
  let clock = Math.floor(Date.now() / 1000) - 1000;
  const inbound = (waMessageId: string, chatId: string, body: string, author: string | null = null) =>
    gw.network.deliverInbound(sessionId, {
      waMessageId,
      chatId,
      from: chatId,
      to: `${OWN}@c.us`,
      author,
      body,
      type: 'text',
      timestamp: ++clock,
      pushName: null,
    });
  const chats = async (query = '') => {
    const res = await gw.request('GET', `/api/sessions/${sessionId}/chats${query}`);
    expect(res.status).toBe(200);
    return res.body as ChatSummary[];
  };
  const chat = async (id: string) => (await chats()).find((c) => c.id === id);
  const operate = (action: string, body: Record<string, unknown>) =>
    gw.request('POST', `/api/sessions/${sessionId}/chats/${action}`, { body });
  const phoneChat = (id: string) => gw.network.chats.of(sessionId, id);

  beforeAll(async () => {
    gw = await startTestGateway();
    sessionId = (await linkedSession(gw, {}, { phone: OWN, pushName: 'Me' })).id;
    await inbound('A-1', ALICE, 'hello');
    await inbound('G-1', GROUP, 'hi all', BOB);
    await inbound('A-2', ALICE, 'are you there?');
    await waitFor(async () => (await chat(ALICE))?.unreadCount === 2);
  });
  afterAll(async () => {
    await gw.close();
  });

  it('lists chats most recent first, each with its last message, unread count and state', async () => {
    const list = await chats();
    expect(list.map((c) => c.id)).toEqual([ALICE, GROUP]);
    expect(list[0]).toEqual({
      id: ALICE,
      name: null,
      isGroup: false,
      kind: 'individual',
      unreadCount: 2,
      markedUnread: false,
      timestamp: clock,
      lastMessage: {
        id: 'A-2',
        fromMe: false,
        author: null,
        type: 'text',
        body: 'are you there?',
        timestamp: clock,
      },
      archived: false,
      pinned: false,
      muted: false,
      muteExpiration: null,
    });
    expect(list[1]).toMatchObject({ isGroup: true, kind: 'group', lastMessage: { author: BOB, id: 'G-1' } });
  });

  it('pages with limit and offset', async () => {
    expect((await chats('?limit=1')).map((c) => c.id)).toEqual([ALICE]);
    expect((await chats('?limit=1&offset=1')).map((c) => c.id)).toEqual([GROUP]);
    expect(await chats('?offset=2')).toEqual([]);
    expectValidation(await gw.request('GET', `/api/sessions/${sessionId}/chats?limit=1001`), 'query.limit');
  });

  it('a message sent moves its chat to the top with the sent message as its last', async () => {
    const sent = await gw.request('POST', `/api/sessions/${sessionId}/messages/send-text`, {
      body: { chatId: GROUP, text: 'from me' },
    });
    expect(sent.status).toBe(201);
    await waitFor(async () => (await chats())[0]?.id === GROUP);
    expect(await chat(GROUP)).toMatchObject({
      lastMessage: { id: sent.body.waMessageId, fromMe: true, author: null, body: 'from me' },
    });
  });

  it('read and unread reach the phone and the list', async () => {
    expect((await operate('read', { chatId: ALICE })).body).toEqual({ success: true });
    await waitFor(async () => (await chat(ALICE))?.unreadCount === 0);
    expect((await operate('unread', { chatId: ALICE })).body).toEqual({ success: true });
    expect(phoneChat(ALICE)?.markedUnread).toBe(true);
    await waitFor(async () => (await chat(ALICE))?.markedUnread === true);
    expect((await operate('read', { chatId: ALICE, messageIds: ['A-1'] })).body).toEqual({ success: true });
    expect(phoneChat(ALICE)?.readIds).toEqual(['A-1']);
  });

  it('archive, pin and mute reach the phone, and the list shows them', async () => {
    expect((await operate('archive', { chatId: ALICE, archive: true })).body).toEqual({ success: true });
    expect((await operate('pin', { chatId: GROUP, pin: true })).body).toEqual({ success: true });
    const until = Date.now() + 3_600_000;
    expect((await operate('mute', { chatId: ALICE, muteUntil: until })).body).toEqual({ success: true });
    expect(phoneChat(ALICE)).toMatchObject({ archived: true, muteUntil: until });
    expect(phoneChat(GROUP)?.pinned).toBe(true);
    await waitFor(async () => (await chat(ALICE))?.muted === true);
    expect(await chat(ALICE)).toMatchObject({ archived: true, muted: true, muteExpiration: until });
    expect(await chat(GROUP)).toMatchObject({ pinned: true });

    await operate('mute', { chatId: ALICE, muteUntil: 0 });
    await waitFor(async () => (await chat(ALICE))?.muteExpiration === 0);
    await operate('mute', { chatId: ALICE, muteUntil: null });
    await operate('archive', { chatId: ALICE, archive: false });
    await waitFor(async () => (await chat(ALICE))?.archived === false);
    expect(await chat(ALICE)).toMatchObject({ muted: false, muteExpiration: null });
  });

  it('what the phone changes shows in the list', async () => {
    gw.network.phoneChangesChat(sessionId, GROUP, { archived: true, pinned: false });
    await waitFor(async () => (await chat(GROUP))?.archived === true);
    expect(await chat(GROUP)).toMatchObject({ pinned: false });
  });

  it('a chat the account does not have is declined (success false), and typing always succeeds', async () => {
    for (const [action, body] of [
      ['read', { chatId: STRANGER }],
      ['unread', { chatId: STRANGER }],
      ['archive', { chatId: STRANGER, archive: true }],
      ['pin', { chatId: STRANGER, pin: true }],
      ['delete', { chatId: STRANGER }],
    ] as const) {
      const res = await operate(action, body);
      expect([action, res.status, res.body]).toEqual([action, 200, { success: false }]);
    }
    const cleared = await gw.request(
      'DELETE',
      `/api/sessions/${sessionId}/chats/${encodeURIComponent(STRANGER)}/messages`,
    );
    expect(cleared.body).toEqual({ success: false });
    expect((await operate('typing', { chatId: ALICE, state: 'recording' })).body).toEqual({ success: true });
    expect(phoneChat(ALICE)?.typing).toBe('recording');
  });

  it('bad bodies are 400 with the field named', async () => {
    expectValidation(await operate('archive', { chatId: ALICE }), 'body.archive');
    expectValidation(await operate('typing', { chatId: ALICE, state: 'dancing' }), 'body.state');
    expectValidation(await operate('mute', { chatId: ALICE, muteUntil: -5 }), 'body.muteUntil');
    expectValidation(await operate('read', { chatId: 'alice' }), 'body.chatId');
    expectValidation(await operate('read', { chatId: ALICE, messageIds: [] }), 'body.messageIds');
  });

  it('clearing a chat empties it on the phone and removes its stored messages', async () => {
    const history = async () =>
      (await gw.request('GET', `/api/sessions/${sessionId}/messages?chatId=${encodeURIComponent(ALICE)}`))
        .body.total as number;
    expect(await history()).toBe(2);
    const res = await gw.request(
      'DELETE',
      `/api/sessions/${sessionId}/chats/${encodeURIComponent(ALICE)}/messages`,
    );
    expect(res.body).toEqual({ success: true });
    expect(phoneChat(ALICE)?.clears).toBe(1);
    await waitFor(async () => (await history()) === 0);
    expect(await chat(ALICE)).toMatchObject({ lastMessage: null, unreadCount: 0 });
  });

  it('deleting a chat removes it from the phone, the list and the history', async () => {
    expect((await operate('delete', { chatId: GROUP })).body).toEqual({ success: true });
    expect(phoneChat(GROUP)).toBeUndefined();
    await waitFor(async () => (await chat(GROUP)) === undefined);
    const history = await gw.request(
      'GET',
      `/api/sessions/${sessionId}/messages?chatId=${encodeURIComponent(GROUP)}`,
    );
    expect(history.body.total).toBe(0);
  });

  it('a chat the phone deletes leaves the list', async () => {
    await inbound('B-1', BOB, 'new chat');
    await waitFor(async () => (await chat(BOB)) !== undefined);
    gw.network.phoneDeletesChat(sessionId, BOB);
    await waitFor(async () => (await chat(BOB)) === undefined);
  });

  it('a session that is not ready answers 400 SESSION_NOT_READY', async () => {
    const stopped = (await linkedSession(gw, {}, { phone: '15550001112', pushName: 'Bob' })).id;
    expect((await gw.request('POST', `/api/sessions/${stopped}/stop`)).status).toBe(200);
    expectError(await gw.request('GET', `/api/sessions/${stopped}/chats`), 400, 'SESSION_NOT_READY');
    expectError(
      await gw.request('POST', `/api/sessions/${stopped}/chats/archive`, {
        body: { chatId: ALICE, archive: true },
      }),
      400,
      'SESSION_NOT_READY',
    );
  });
});
