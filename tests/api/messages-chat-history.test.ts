/**
 * GET /api/sessions/{sessionId}/messages/{chatId}/history: the stored messages of one chat, newest first, up to
 * `limit` (default 100, at most 2000), `{chatId, messages, total, truncated}`; `includeMedia` keeps or leaves out
 * each message's media descriptors; other chats and sessions never show; input refused with 400, an unknown session
 * 404, a key of another session 403, and the viewer role reads it. Messages are put in the gateway's store directly
 * (timestamps and media rows no send makes), and every answer is checked against the OpenAPI document by the client.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { ChatHistoryMessage } from '#shared/domain/chat-history.js';
import type { Message } from '#shared/domain/message.js';
import { aMessage } from '#tests/helpers/builders.js';
import { withGatewayDataStore } from '#tests/helpers/gateway-data-store.js';
import { type ApiResponse, startTestGateway, type TestGateway } from '#tests/helpers/test-gateway.js';
import { expectError, expectValidation, UNKNOWN_ID } from './sessions-support.js';

const CONTACT = '15557770001@c.us';
const OTHER_CHAT = '15557770002@c.us';
const BUSY_CHAT = '120363025246125401@g.us';
const ME = '15550003333@c.us';
const T0 = 1_750_000_000;

interface HistoryBody {
  chatId: string;
  messages: ChatHistoryMessage[];
  total: number;
  truncated: boolean;
}

describe('GET …/messages/{chatId}/history', () => {
  let gw: TestGateway;
  let sessionId: string;
  let otherSessionId: string;

  const row = (session: string, chatId: string, second: number, overrides: Partial<Message> = {}) =>
    aMessage({
      sessionId: session,
      chatId,
      from: chatId,
      to: ME,
      direction: 'incoming',
      body: `${chatId} at ${second}`,
      timestamp: T0 + second,
      metadata: { pushName: 'Ann' },
      ...overrides,
    });
  /** The contact's chat: a text, a photo with its file, a text, a document with its file, a text (oldest first). */
  const contactRows = (session: string) => [
    row(session, CONTACT, 1),
    row(session, CONTACT, 2, {
      type: 'image',
      body: 'the photo',
      mediaPath: `media/${session}/photo.jpg`,
      mediaMimetype: 'image/jpeg',
      metadata: { pushName: 'Ann', media: { mimetype: 'image/jpeg', sizeBytes: 2048 } },
    }),
    row(session, CONTACT, 3),
    row(session, CONTACT, 4, {
      type: 'document',
      body: null,
      mediaPath: `media/${session}/a.pdf`,
      mediaMimetype: 'application/pdf',
      metadata: { media: { mimetype: 'application/pdf', filename: 'a.pdf', sizeBytes: 9 } },
    }),
    row(session, CONTACT, 5, { direction: 'outgoing', from: ME, to: CONTACT, metadata: null }),
  ];
  let contact: Message[];

  beforeAll(async () => {
    gw = await startTestGateway();
    sessionId = (await gw.createSession()).id;
    otherSessionId = (await gw.createSession()).id;
    contact = contactRows(sessionId);
    const busy = Array.from({ length: 101 }, (_, i) =>
      row(sessionId, BUSY_CHAT, 100 + i, { author: CONTACT }),
    );
    const elsewhere = [
      row(sessionId, OTHER_CHAT, 10),
      row(sessionId, OTHER_CHAT, 0),
      ...contactRows(otherSessionId),
    ];
    await withGatewayDataStore(gw, async (data) => {
      for (const message of [...contact, ...elsewhere]) await data.messages.insert(message);
      // Concurrently, in slices: the busy chat is there for the default limit, not for the order of its inserts.
      for (let i = 0; i < busy.length; i += 25) {
        await Promise.all(busy.slice(i, i + 25).map((message) => data.messages.insert(message)));
      }
    });
  });
  afterAll(async () => {
    await gw.close();
  });

  const history = (
    query: Record<string, string> = {},
    options: { chatId?: string; session?: string; key?: string | null } = {},
  ): Promise<ApiResponse<HistoryBody>> => {
    const qs = new URLSearchParams(query).toString();
    const chat = encodeURIComponent(options.chatId ?? CONTACT);
    return gw.request<HistoryBody>(
      'GET',
      `/api/sessions/${options.session ?? sessionId}/messages/${chat}/history${qs ? `?${qs}` : ''}`,
      options.key === undefined ? {} : { key: options.key },
    );
  };
  const ok = async (response: Promise<ApiResponse<HistoryBody>>): Promise<HistoryBody> => {
    const res = await response;
    if (res.status !== 200) throw new Error(`expected 200, got ${res.status} ${res.text}`);
    return res.body;
  };
  const ids = (body: HistoryBody) => body.messages.map((message) => message.id);
  const newestFirst = (messages: readonly Message[]) => [...messages].reverse().map((message) => message.id);

  it("answers the chat's messages newest first, its other chats and other sessions' left out", async () => {
    const body = await ok(history());
    expect(ids(body)).toEqual(newestFirst(contact));
    expect(body).toMatchObject({ chatId: CONTACT, total: 5, truncated: false });
    for (const message of body.messages)
      expect([message.sessionId, message.chatId]).toEqual([sessionId, CONTACT]);
    const other = await ok(history({}, { chatId: OTHER_CHAT }));
    expect(other.messages.map((message) => message.timestamp)).toEqual([T0 + 10, T0]);
    const empty = await ok(history({}, { chatId: '15557770099@c.us' }));
    expect(empty).toEqual({ chatId: '15557770099@c.us', messages: [], total: 0, truncated: false });
  });

  it('stops at limit (the newest), at 100 by default, and says when older messages exist', async () => {
    const two = await ok(history({ limit: '2' }));
    expect(ids(two)).toEqual(newestFirst(contact).slice(0, 2));
    expect(two).toMatchObject({ total: 5, truncated: true });
    const busy = await ok(history({}, { chatId: BUSY_CHAT }));
    expect(busy.messages).toHaveLength(100);
    expect(busy.messages[0]?.timestamp).toBe(T0 + 200);
    expect(busy.messages[99]?.timestamp).toBe(T0 + 101);
    expect(busy).toMatchObject({ total: 101, truncated: true });
    const all = await ok(history({ limit: '2000' }, { chatId: BUSY_CHAT }));
    expect(all.messages.map((message) => message.timestamp)).toEqual(
      Array.from({ length: 101 }, (_, i) => T0 + 200 - i),
    );
    expect(all).toMatchObject({ total: 101, truncated: false });
  });

  it('leaves the media descriptors out by default and with includeMedia=false, keeping type, caption and the rest', async () => {
    const plain = await ok(history());
    expect(await ok(history({ includeMedia: 'false' }))).toEqual(plain);
    for (const message of plain.messages) {
      expect(message).not.toHaveProperty('mediaPath');
      expect(message).not.toHaveProperty('mediaMimetype');
      expect(message.metadata ?? {}).not.toHaveProperty('media');
    }
    const photo = plain.messages.find((message) => message.type === 'image');
    expect(photo).toMatchObject({ body: 'the photo', metadata: { pushName: 'Ann' } });
    expect(plain.messages.find((message) => message.type === 'document')?.metadata).toEqual({});
  });

  it('keeps them with includeMedia=true: each message as the message list answers it', async () => {
    const full = await ok(history({ includeMedia: 'true' }));
    const list = await gw.request(
      'GET',
      `/api/sessions/${sessionId}/messages?chatId=${encodeURIComponent(CONTACT)}`,
    );
    expect(list.status).toBe(200);
    expect(full.messages).toEqual(list.body.messages);
    expect(full.messages.find((message) => message.type === 'image')).toMatchObject({
      mediaPath: `media/${sessionId}/photo.jpg`,
      mediaMimetype: 'image/jpeg',
      metadata: { pushName: 'Ann', media: { mimetype: 'image/jpeg', sizeBytes: 2048 } },
    });
    expect(full.messages.find((message) => message.direction === 'outgoing')).toMatchObject({
      mediaPath: null,
      mediaMimetype: null,
    });
  });

  it.each([
    [{ limit: '0' }, 'query.limit'],
    [{ limit: '2001' }, 'query.limit'],
    [{ limit: 'ten' }, 'query.limit'],
    [{ includeMedia: 'yes' }, 'query.includeMedia'],
    [{ includeMedia: 'TRUE' }, 'query.includeMedia'],
    [{ offset: '1' }, 'query'],
  ])('answers 400 VALIDATION_FAILED to the query %j', async (query, path) => {
    expectValidation(await history(query), path);
  });

  it('answers 400 to a chat id or session id of the wrong form, 404 to an unknown session', async () => {
    for (const chatId of ['nope', '123@c.us', '15557770001@s.whatsapp.net']) {
      expectValidation(await history({}, { chatId }), 'path.chatId');
    }
    expectValidation(await history({}, { session: 'not-a-uuid' }), 'path.sessionId');
    expectError(await history({}, { session: UNKNOWN_ID }), 404, 'NOT_FOUND');
  });

  it('lets a viewer read it, a key scoped to the session too; 403 for a key of another session, 401 without', async () => {
    const viewer = await gw.createKey({ name: 'history viewer', role: 'viewer' });
    const own = await gw.createKey({ name: 'history own', role: 'viewer', allowedSessions: [sessionId] });
    const other = await gw.createKey({ name: 'history other', allowedSessions: [otherSessionId] });
    expect(ids(await ok(history({}, { key: viewer.key })))).toEqual(newestFirst(contact));
    expect(ids(await ok(history({}, { key: own.key })))).toEqual(newestFirst(contact));
    expectError(await history({}, { key: other.key }), 403, 'FORBIDDEN_SESSION');
    expect((await history({}, { key: null })).status).toBe(401);
  });
});
