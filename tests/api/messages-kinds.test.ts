/**
 * The send routes beyond send-text (location, contact, reply, forward, react, edit, delete) and a message's
 * reactions, through the HTTP API to the test engine: what each sends, how the target row changes, the events,
 * and every route's error codes, role and session scope.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { GatewayEvent } from '#shared/domain/events.js';
import { startTestGateway, type TestGateway, waitFor, waitForStatus } from '#tests/helpers/test-gateway.js';

const CONTACT = '15557770001@c.us';
const OTHER = '15557770002@c.us';
const ME = '15550003333@c.us';
const UNKNOWN_SESSION = '00000000-0000-4000-8000-000000000001';

describe('messages: every send kind', () => {
  let gw: TestGateway;
  let sessionId: string;
  const events: GatewayEvent[] = [];

  beforeAll(async () => {
    gw = await startTestGateway();
    gw.gateway.events.subscribe((event) => {
      events.push(event);
    });
    sessionId = (await gw.createSession()).id;
    gw.network.storeCredentials(sessionId, { phone: '15550003333', pushName: 'Me' });
    await gw.request('POST', `/api/sessions/${sessionId}/start`);
    await waitForStatus(gw, sessionId, 'ready');
  });
  afterAll(async () => {
    await gw.close();
  });

  const post = (action: string, body: unknown, options: { key?: string | null; id?: string } = {}) =>
    gw.request('POST', `/api/sessions/${options.id ?? sessionId}/messages/${action}`, {
      body,
      ...(options.key !== undefined ? { key: options.key } : {}),
    });
  const lastSent = () => (gw.network.sent.get(sessionId) ?? []).at(-1);
  const row = async (id: string) => {
    const page = (await gw.request('GET', `/api/sessions/${sessionId}/messages?limit=1000`)).body;
    return page.messages.find((m: { id: string }) => m.id === id);
  };
  const text = async (body: string, chatId = CONTACT) =>
    (await post('send-text', { chatId, text: body })).body;
  const inbound = async (waMessageId: string, body: string) => {
    await gw.network.deliverInbound(sessionId, {
      waMessageId,
      chatId: CONTACT,
      from: CONTACT,
      to: ME,
      author: null,
      body,
      type: 'text',
      timestamp: Math.floor(Date.now() / 1000),
      pushName: 'Contact',
    });
  };

  it('sends a location and a contact card, stored with the metadata received ones carry', async () => {
    const location = await post('send-location', {
      chatId: CONTACT,
      latitude: 52.52,
      longitude: 13.405,
      description: 'Berlin',
      address: 'Mitte',
    });
    expect(location.status).toBe(201);
    expect(location.body).toMatchObject({
      type: 'location',
      body: 'Berlin',
      status: 'sent',
      metadata: { location: { latitude: 52.52, longitude: 13.405, description: 'Berlin', address: 'Mitte' } },
    });
    expect(lastSent()?.content).toEqual({
      type: 'location',
      latitude: 52.52,
      longitude: 13.405,
      description: 'Berlin',
      address: 'Mitte',
    });
    const contact = await post('send-contact', {
      chatId: CONTACT,
      contactName: 'Ada',
      contactNumber: '+49 151 1234',
    });
    expect(contact.status).toBe(201);
    expect(contact.body).toMatchObject({ type: 'contact', body: 'Ada' });
    expect(lastSent()?.content).toEqual({
      type: 'contact',
      displayName: 'Ada',
      vcards: [expect.stringContaining('waid=491511234:+491511234')],
    });
  });

  it('replies with the quoted message resolved by network id or stored id', async () => {
    await inbound('IN-QUOTE-1', 'question?');
    for (const quotedMessageId of ['IN-QUOTE-1', (await text('mine')).id]) {
      const res = await post('reply', { chatId: CONTACT, quotedMessageId, text: 'answer' });
      expect(res.status).toBe(201);
      expect(lastSent()?.content).toMatchObject({
        type: 'text',
        text: 'answer',
        quoted: { id: expect.any(String) },
      });
    }
    expect(lastSent()?.content).toMatchObject({ quoted: { fromMe: true } });
    const missing = await post('reply', { chatId: CONTACT, quotedMessageId: 'NOPE', text: 'x' });
    expect([missing.status, missing.body.code]).toEqual([404, 'MESSAGE_NOT_FOUND']);
    const otherChat = await post('reply', { chatId: OTHER, quotedMessageId: 'IN-QUOTE-1', text: 'x' });
    expect([otherChat.status, otherChat.body.code]).toEqual([404, 'MESSAGE_NOT_FOUND']);
  });

  it('forwards a stored message to another chat, marked forwarded, without its quote', async () => {
    const reply = (await post('reply', { chatId: CONTACT, quotedMessageId: 'IN-QUOTE-1', text: 'fwd me' }))
      .body;
    const res = await post('forward', { fromChatId: CONTACT, toChatId: OTHER, messageId: reply.waMessageId });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({
      chatId: OTHER,
      type: 'text',
      body: 'fwd me',
      metadata: { forwarded: true },
    });
    expect(lastSent()).toMatchObject({
      chatId: OTHER,
      content: { type: 'text', text: 'fwd me', forwarded: true },
    });
    expect(lastSent()?.content).not.toHaveProperty('quoted');
  });

  it('reacts, changes and takes back its reaction; the target row and GET …/reactions show it', async () => {
    await inbound('IN-REACT-1', 'react to me');
    const react = (emoji: string) => post('react', { chatId: CONTACT, messageId: 'IN-REACT-1', emoji });
    expect((await react('👍')).status).toBe(201);
    expect(lastSent()?.content).toEqual({
      type: 'reaction',
      emoji: '👍',
      target: { id: 'IN-REACT-1', fromMe: false },
    });
    const reactions = await gw.request(
      'GET',
      `/api/sessions/${sessionId}/messages/${encodeURIComponent(CONTACT)}/IN-REACT-1/reactions`,
    );
    expect(reactions.status).toBe(200);
    expect(reactions.body).toEqual([
      { emoji: '👍', senders: [{ senderId: ME, emoji: '👍', timestamp: expect.any(Number) }] },
    ]);
    await react('❤️');
    await react('');
    const after = await gw.request(
      'GET',
      `/api/sessions/${sessionId}/messages/${encodeURIComponent(CONTACT)}/IN-REACT-1/reactions`,
    );
    expect(after.body).toEqual([]);
    const published = events.filter(
      (e) => e.event === 'message.reaction' && e.data.messageId === 'IN-REACT-1',
    );
    expect(published.map((e) => e.event === 'message.reaction' && e.data.reaction)).toEqual(['👍', '❤️', '']);
  });

  it('edits and deletes its own text; the row shows it and message.edited / message.revoked are published', async () => {
    const mine = await text('draft');
    const edit = await post('edit', { chatId: CONTACT, messageId: mine.waMessageId, body: 'final' });
    expect(edit.status).toBe(201);
    expect(edit.body).toMatchObject({
      type: 'edit',
      body: 'final',
      metadata: { target: { id: mine.waMessageId } },
    });
    expect(await row(mine.id)).toMatchObject({ body: 'final', metadata: { editedAt: expect.any(Number) } });
    await waitFor(() =>
      events.some((e) => e.event === 'message.edited' && e.data.messageId === mine.waMessageId),
    );
    const del = await post('delete', { chatId: CONTACT, messageId: mine.id });
    expect(del.status).toBe(201);
    expect(lastSent()?.content).toEqual({ type: 'revoke', target: { id: mine.waMessageId, fromMe: true } });
    expect(await row(mine.id)).toMatchObject({
      type: 'revoked',
      body: null,
      metadata: { revokedAt: expect.any(Number) },
    });
    await waitFor(() => events.some((e) => e.event === 'message.revoked' && e.data.id === mine.waMessageId));
    const again = await post('react', { chatId: CONTACT, messageId: mine.id, emoji: '👍' });
    expect([again.status, again.body.code]).toEqual([400, 'MESSAGE_NOT_SHOWN']);
    const fwd = await post('forward', { fromChatId: CONTACT, toChatId: OTHER, messageId: mine.id });
    expect([fwd.status, fwd.body.code]).toEqual([400, 'MESSAGE_NOT_FORWARDABLE']);
  });

  it('refuses to edit or delete a contact’s message, or to edit a location', async () => {
    await inbound('IN-THEIRS-1', 'theirs');
    const edit = await post('edit', { chatId: CONTACT, messageId: 'IN-THEIRS-1', body: 'x' });
    expect([edit.status, edit.body.code]).toEqual([400, 'MESSAGE_NOT_EDITABLE']);
    const del = await post('delete', { chatId: CONTACT, messageId: 'IN-THEIRS-1' });
    expect([del.status, del.body.code]).toEqual([400, 'MESSAGE_NOT_REVOCABLE']);
    const location = (await post('send-location', { chatId: CONTACT, latitude: 1, longitude: 2 })).body;
    const editLocation = await post('edit', { chatId: CONTACT, messageId: location.id, body: 'x' });
    expect([editLocation.status, editLocation.body.code]).toEqual([400, 'MESSAGE_NOT_EDITABLE']);
  });

  it('applies a contact’s reaction, edit and revoke to the stored message, and ignores a forged one', async () => {
    await inbound('IN-CHANGE-1', 'original');
    const now = Math.floor(Date.now() / 1000);
    const change = (changeBody: object, senderId = CONTACT) =>
      gw.network.deliverChange(sessionId, {
        targetId: 'IN-CHANGE-1',
        chatId: CONTACT,
        senderId,
        timestamp: now,
        change: changeBody as { kind: 'revoke' },
      });
    await change({ kind: 'reaction', emoji: '😂' });
    await change({ kind: 'edit', body: 'forged' }, OTHER);
    await change({ kind: 'edit', body: 'corrected' });
    const page = (await gw.request('GET', `/api/sessions/${sessionId}/messages?limit=1000`)).body;
    const stored = page.messages.find((m: { waMessageId: string }) => m.waMessageId === 'IN-CHANGE-1');
    expect(stored).toMatchObject({
      body: 'corrected',
      metadata: { reactions: { [CONTACT]: { emoji: '😂', timestamp: now } } },
    });
    await change({ kind: 'revoke' });
    const revoked = (
      await gw.request('GET', `/api/sessions/${sessionId}/messages?limit=1000`)
    ).body.messages.find((m: { waMessageId: string }) => m.waMessageId === 'IN-CHANGE-1');
    expect(revoked).toMatchObject({ type: 'revoked', body: null });
    const kinds = events
      .filter(
        (e) =>
          ('data' in e && (e.data as { messageId?: string; id?: string }).messageId === 'IN-CHANGE-1') ||
          (e.event === 'message.revoked' && e.data.id === 'IN-CHANGE-1'),
      )
      .map((e) => e.event);
    expect(kinds).toEqual(['message.reaction', 'message.edited', 'message.revoked']);
  });

  it('validates bodies: bad coordinates, emoji too long, delete "for me", unknown fields', async () => {
    const cases: Array<[string, object]> = [
      ['send-location', { chatId: CONTACT, latitude: 91, longitude: 0 }],
      ['send-contact', { chatId: CONTACT, contactName: 'A', contactNumber: 'abc' }],
      ['react', { chatId: CONTACT, messageId: 'X', emoji: 'x'.repeat(33) }],
      ['delete', { chatId: CONTACT, messageId: 'X', forEveryone: false }],
      ['forward', { fromChatId: CONTACT, toChatId: 'nope', messageId: 'X' }],
      ['edit', { chatId: CONTACT, messageId: 'X', body: '' }],
      ['reply', { chatId: CONTACT, text: 'no quote' }],
    ];
    for (const [action, body] of cases) {
      const res = await post(action, body);
      expect([action, res.status, res.body.code]).toEqual([action, 400, 'VALIDATION_FAILED']);
    }
  });

  it.each(['send-location', 'send-contact', 'reply', 'forward', 'react', 'edit', 'delete'])(
    '%s: 401 without a key, 403 for a viewer or another session’s key, 404 for an unknown session, 400 when not ready',
    async (action) => {
      const bodies: Record<string, object> = {
        'send-location': { chatId: CONTACT, latitude: 1, longitude: 1 },
        'send-contact': { chatId: CONTACT, contactName: 'A', contactNumber: '12345' },
        reply: { chatId: CONTACT, quotedMessageId: 'IN-QUOTE-1', text: 'x' },
        forward: { fromChatId: CONTACT, toChatId: OTHER, messageId: 'IN-QUOTE-1' },
        react: { chatId: CONTACT, messageId: 'IN-QUOTE-1', emoji: '👍' },
        edit: { chatId: CONTACT, messageId: 'IN-QUOTE-1', body: 'x' },
        delete: { chatId: CONTACT, messageId: 'IN-QUOTE-1' },
      };
      const body = bodies[action];
      const viewer = await gw.createKey({ name: `${action} viewer`, role: 'viewer' });
      const scoped = await gw.createKey({
        name: `${action} scoped`,
        allowedSessions: [(await gw.createSession()).id],
      });
      expect((await post(action, body, { key: null })).status).toBe(401);
      expect((await post(action, body, { key: viewer.key })).status).toBe(403);
      expect((await post(action, body, { key: scoped.key })).status).toBe(403);
      expect((await post(action, body, { id: UNKNOWN_SESSION })).status).toBe(404);
      const idle = await gw.createSession();
      const notReady = await post(action, body, { id: idle.id });
      expect([notReady.status, notReady.body.code]).toEqual([400, 'SESSION_NOT_READY']);
    },
  );

  it('GET …/reactions: viewer reads; 403 for another session’s key; 404 for an unknown message or session', async () => {
    const path = (id: string, messageId: string) =>
      `/api/sessions/${id}/messages/${encodeURIComponent(CONTACT)}/${messageId}/reactions`;
    const viewer = await gw.createKey({ name: 'reactions viewer', role: 'viewer' });
    const scoped = await gw.createKey({
      name: 'reactions scoped',
      allowedSessions: [(await gw.createSession()).id],
    });
    expect((await gw.request('GET', path(sessionId, 'IN-QUOTE-1'), { key: viewer.key })).status).toBe(200);
    expect((await gw.request('GET', path(sessionId, 'IN-QUOTE-1'), { key: scoped.key })).status).toBe(403);
    expect((await gw.request('GET', path(sessionId, 'IN-QUOTE-1'), { key: null })).status).toBe(401);
    const missing = await gw.request('GET', path(sessionId, 'NOPE'));
    expect([missing.status, missing.body.code]).toEqual([404, 'MESSAGE_NOT_FOUND']);
    expect((await gw.request('GET', path(UNKNOWN_SESSION, 'IN-QUOTE-1'))).status).toBe(404);
  });
});
