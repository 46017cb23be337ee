import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { GatewayEvent } from '#shared/domain/events.js';
import { startTestGateway, type TestGateway, waitFor, waitForStatus } from '#tests/helpers/test-gateway.js';

const CONTACT = '15557770001@c.us';

describe('messages: send-text, inbound, acks and history', () => {
  let gw: TestGateway;
  let sessionId: string;
  const events: GatewayEvent[] = [];

  beforeAll(async () => {
    gw = await startTestGateway();
    gw.gateway.events.subscribe((event) => {
      events.push(event);
    });
    const session = await gw.createSession();
    sessionId = session.id;
    gw.network.storeCredentials(sessionId, { phone: '15550002222', pushName: 'Me' });
    await gw.request('POST', `/api/sessions/${sessionId}/start`);
    await waitForStatus(gw, sessionId, 'ready');
  });
  afterAll(async () => {
    await gw.close();
  });

  const send = (body: unknown, key?: string, id = sessionId) =>
    gw.request('POST', `/api/sessions/${id}/messages/send-text`, { body, ...(key ? { key } : {}) });

  it('sends through the engine under a pre-generated id and answers 201 with the sent row', async () => {
    const res = await send({ chatId: CONTACT, text: 'hello there' });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({
      sessionId,
      chatId: CONTACT,
      from: '15550002222@c.us',
      to: CONTACT,
      body: 'hello there',
      type: 'text',
      direction: 'outgoing',
      status: 'sent',
      waMessageId: expect.stringMatching(/^3EB0[0-9A-F]{18}$/),
      timestamp: expect.any(Number),
    });
    const sent = gw.network.sent.get(sessionId) ?? [];
    expect(sent.at(-1)).toEqual({
      chatId: CONTACT,
      content: { type: 'text', text: 'hello there' },
      waMessageId: res.body.waMessageId,
      timestamp: res.body.timestamp,
    });
    await waitFor(() => events.some((e) => e.event === 'message.sent' && e.data.id === res.body.waMessageId));
  });

  it('sends the mentions with the text and keeps them in the row', async () => {
    const mention = '15557770009@c.us';
    const res = await send({ chatId: CONTACT, text: 'ping @15557770009', mentions: [mention] });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ status: 'sent', metadata: { mentions: [mention] } });
    expect((gw.network.sent.get(sessionId) ?? []).at(-1)).toEqual({
      chatId: CONTACT,
      content: { type: 'text', text: 'ping @15557770009', mentions: [mention] },
      waMessageId: res.body.waMessageId,
      // Sent under the row's own time, the time it was written.
      timestamp: res.body.timestamp,
    });
  });

  it('advances acks sent → delivered → read, never backwards, and publishes message.ack', async () => {
    const { body: message } = await send({ chatId: CONTACT, text: 'ack me' });
    const ack = (status: 'delivered' | 'read') =>
      gw.network.acknowledge(sessionId, { waMessageId: message.waMessageId, chatId: CONTACT, status });
    ack('read');
    ack('delivered');
    const stored = await waitFor(async () => {
      const page = (
        await gw.request('GET', `/api/sessions/${sessionId}/messages?chatId=${encodeURIComponent(CONTACT)}`)
      ).body;
      const row = page.messages.find((m: { id: string }) => m.id === message.id);
      return row?.status === 'read' ? row : null;
    });
    expect(stored.status).toBe('read');
    const acks = events.filter((e) => e.event === 'message.ack' && e.data.messageId === message.waMessageId);
    expect(acks.map((e) => (e.event === 'message.ack' ? e.data.status : null))).toEqual(['read']);
  });

  it('stores an inbound text once and publishes message.received once, even if the engine re-fires it', async () => {
    const inbound = {
      waMessageId: 'IN-0001',
      chatId: '15557770002@c.us',
      from: '15557770002@c.us',
      to: '15550002222@c.us',
      author: null,
      body: 'hi gateway',
      type: 'text',
      timestamp: 1_790_000_000,
      pushName: 'Ann',
    };
    gw.network.deliverInbound(sessionId, inbound);
    gw.network.deliverInbound(sessionId, inbound);
    const received = await waitFor(() =>
      events.find((e) => e.event === 'message.received' && e.data.id === 'IN-0001'),
    );
    expect(received.data).toMatchObject({
      chatId: inbound.chatId,
      from: inbound.from,
      body: 'hi gateway',
      type: 'text',
      timestamp: 1_790_000_000,
    });
    const history = (await gw.request('GET', `/api/sessions/${sessionId}/messages?from=15557770002`)).body;
    expect(history.total).toBe(1);
    expect(history.messages[0]).toMatchObject({
      direction: 'incoming',
      waMessageId: 'IN-0001',
      timestamp: 1_790_000_000,
    });
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(events.filter((e) => e.event === 'message.received' && e.data.id === 'IN-0001')).toHaveLength(1);
  });

  it('lists history newest first with limit, offset and total', async () => {
    for (const text of ['one', 'two', 'three']) await send({ chatId: '15557770003@c.us', text });
    const page = (
      await gw.request(
        'GET',
        `/api/sessions/${sessionId}/messages?chatId=15557770003%40c.us&limit=2&offset=1`,
      )
    ).body;
    expect(page.total).toBe(3);
    expect(page.messages.map((m: { body: string }) => m.body)).toEqual(['two', 'one']);
  });

  it.each([
    [{ chatId: 'nope', text: 'x' }, 'a malformed chatId'],
    [{ chatId: CONTACT, text: '' }, 'an empty text'],
    [{ chatId: CONTACT, text: 'x'.repeat(4097) }, 'a text over 4096 characters'],
    [{ chatId: CONTACT, text: 'hi', mentions: ['15557770009@c.us'] }, 'a mention missing from the text'],
    [{ chatId: CONTACT, text: 'hi', extra: 1 }, 'an unknown field'],
  ])('refuses %j with 400 (%s) and stores nothing', async (body, _why) => {
    const before = (await gw.request('GET', `/api/sessions/${sessionId}/messages`)).body.total;
    const res = await send(body);
    expect([res.status, res.body.code]).toEqual([400, 'VALIDATION_FAILED']);
    expect((await gw.request('GET', `/api/sessions/${sessionId}/messages`)).body.total).toBe(before);
  });

  it('refuses a session that is not ready with 400 SESSION_NOT_READY', async () => {
    const session = await gw.createSession();
    const res = await send({ chatId: CONTACT, text: 'x' }, undefined, session.id);
    expect([res.status, res.body.code]).toEqual([400, 'SESSION_NOT_READY']);
  });

  it('answers 401 without a key, 403 for a viewer (send) or another session’s key, 404 for an unknown session', async () => {
    const viewer = await gw.createKey({ name: 'messages viewer', role: 'viewer' });
    const scoped = await gw.createKey({
      name: 'messages scoped',
      allowedSessions: [(await gw.createSession()).id],
    });
    const body = { chatId: CONTACT, text: 'x' };
    expect(
      (await gw.request('POST', `/api/sessions/${sessionId}/messages/send-text`, { key: null, body })).status,
    ).toBe(401);
    expect((await send(body, viewer.key)).status).toBe(403);
    expect((await gw.request('GET', `/api/sessions/${sessionId}/messages`, { key: viewer.key })).status).toBe(
      200,
    );
    expect((await send(body, scoped.key)).status).toBe(403);
    expect((await gw.request('GET', `/api/sessions/${sessionId}/messages`, { key: scoped.key })).status).toBe(
      403,
    );
    expect((await send(body, undefined, '00000000-0000-4000-8000-000000000001')).status).toBe(404);
  });
});
