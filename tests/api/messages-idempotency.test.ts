/**
 * Idempotent sends over HTTP: an `Idempotency-Key` makes a retried send-text answer the first message (header
 * `Idempotent-Replayed: true`) without a second row or a second send through the engine; the key with another body
 * is 422, a malformed key 400; keys are per session; concurrent requests with one key send one message; the OpenAPI
 * document describes all of it.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { withGatewayDataStore } from '#tests/helpers/gateway-data-store.js';
import { startTestGateway, type TestGateway, waitForStatus } from '#tests/helpers/test-gateway.js';

const PHONE = '15550003333';
let chats = 0;
/** A chat of its own per test, so history and engine counts see only that test's sends. */
const freshChat = () => `1555888${String(++chats).padStart(4, '0')}@c.us`;

describe('messages: idempotent send-text (Idempotency-Key)', () => {
  let gw: TestGateway;
  let sessionId: string;

  async function readySession(phone: string): Promise<string> {
    const session = await gw.createSession();
    gw.network.storeCredentials(session.id, { phone, pushName: 'Me' });
    await gw.request('POST', `/api/sessions/${session.id}/start`);
    await waitForStatus(gw, session.id, 'ready');
    return session.id;
  }

  beforeAll(async () => {
    gw = await startTestGateway();
    sessionId = await readySession(PHONE);
  });
  afterAll(async () => {
    await gw.close();
  });

  const send = (body: unknown, idempotencyKey?: string, options: { key?: string | null; id?: string } = {}) =>
    gw.request('POST', `/api/sessions/${options.id ?? sessionId}/messages/send-text`, {
      body,
      headers: idempotencyKey === undefined ? {} : { 'idempotency-key': idempotencyKey },
      ...(options.key === undefined ? {} : { key: options.key }),
    });
  const history = async (chatId: string, id = sessionId) =>
    (await gw.request('GET', `/api/sessions/${id}/messages?chatId=${encodeURIComponent(chatId)}`)).body;
  const sentTo = (chatId: string, id = sessionId) =>
    (gw.network.sent.get(id) ?? []).filter((sent) => sent.chatId === chatId);

  it('answers a retry with the first message and Idempotent-Replayed: true, sending and storing it once', async () => {
    const chatId = freshChat();
    const first = await send({ chatId, text: 'pay order 1' }, 'order-1');
    const retry = await send({ text: 'pay order 1', chatId }, 'order-1');

    expect([first.status, first.headers.get('idempotent-replayed')]).toEqual([201, null]);
    expect([retry.status, retry.headers.get('idempotent-replayed')]).toEqual([201, 'true']);
    expect(retry.body).toEqual(first.body);
    expect(first.body).toMatchObject({ chatId, body: 'pay order 1', status: 'sent' });
    expect((await history(chatId)).total).toBe(1);
    expect(sentTo(chatId)).toHaveLength(1);
  });

  it('sends again without a key, and under another key', async () => {
    const chatId = freshChat();
    const statuses = [
      (await send({ chatId, text: 'same' })).status,
      (await send({ chatId, text: 'same' })).status,
      (await send({ chatId, text: 'same' }, 'key-a')).status,
      (await send({ chatId, text: 'same' }, 'key-b')).status,
    ];
    expect(statuses).toEqual([201, 201, 201, 201]);
    expect((await history(chatId)).total).toBe(4);
    expect(sentTo(chatId)).toHaveLength(4);
  });

  it('refuses the key with another body: 422 IDEMPOTENCY_KEY_REUSED, nothing stored or sent', async () => {
    const chatId = freshChat();
    expect((await send({ chatId, text: 'first' }, 'reused')).status).toBe(201);
    const other = await send({ chatId, text: 'second' }, 'reused');
    const otherChat = await send({ chatId: freshChat(), text: 'first' }, 'reused');

    expect([other.status, other.body.code]).toEqual([422, 'IDEMPOTENCY_KEY_REUSED']);
    expect([otherChat.status, otherChat.body.code]).toEqual([422, 'IDEMPOTENCY_KEY_REUSED']);
    expect((await history(chatId)).total).toBe(1);
    expect(sentTo(chatId)).toHaveLength(1);
  });

  it.each([
    ['empty', ''],
    ['256 characters long', 'k'.repeat(256)],
    ['not ASCII', 'clé'],
    ['holding a space', 'two words'],
  ])('refuses a key %s with 400 IDEMPOTENCY_KEY_INVALID, storing and sending nothing', async (_why, key) => {
    const chatId = freshChat();
    const res = await send({ chatId, text: 'x' }, key);
    expect([res.status, res.body.code]).toEqual([400, 'IDEMPOTENCY_KEY_INVALID']);
    expect((await history(chatId)).total).toBe(0);
    expect(sentTo(chatId)).toHaveLength(0);
  });

  it('accepts a key of 255 visible ASCII characters, punctuation included', async () => {
    const key = `${'!~'.repeat(127)}Z`;
    const chatId = freshChat();
    expect((await send({ chatId, text: 'long key' }, key)).status).toBe(201);
    const retry = await send({ chatId, text: 'long key' }, key);
    expect([retry.status, retry.headers.get('idempotent-replayed')]).toEqual([201, 'true']);
  });

  it('keeps keys per session: another session sends under the same key and body', async () => {
    const otherId = await readySession('15550004444');
    const chatId = freshChat();
    const mine = await send({ chatId, text: 'hello' }, 'shared-key');
    const theirs = await send({ chatId, text: 'hello' }, 'shared-key', { id: otherId });

    expect([mine.status, theirs.status]).toEqual([201, 201]);
    expect(theirs.headers.get('idempotent-replayed')).toBeNull();
    expect(theirs.body.id).not.toBe(mine.body.id);
    expect(sentTo(chatId)).toHaveLength(1);
    expect(sentTo(chatId, otherId)).toHaveLength(1);
  });

  it('lets concurrent requests with one key send one message; the others replay it or answer 409', async () => {
    const chatId = freshChat();
    const results = await Promise.all(
      Array.from({ length: 5 }, () => send({ chatId, text: 'at once' }, 'concurrent')),
    );
    const created = results.filter((res) => res.status === 201);
    expect(created.filter((res) => res.headers.get('idempotent-replayed') === null)).toHaveLength(1);
    for (const res of created) expect(res.body.id).toBe(created[0]?.body.id);
    for (const res of results.filter((r) => r.status !== 201)) {
      expect([res.status, res.body.code, res.body.retryable]).toEqual([
        409,
        'IDEMPOTENCY_KEY_IN_PROGRESS',
        true,
      ]);
    }
    expect((await history(chatId)).total).toBe(1);
    expect(sentTo(chatId)).toHaveLength(1);
  });

  it('checks the key and its role before the header: 401 without a key, 403 for a viewer or another session’s key', async () => {
    const chatId = freshChat();
    expect((await send({ chatId, text: 'x' }, 'scope')).status).toBe(201);
    const viewer = await gw.createKey({ name: 'idem viewer', role: 'viewer' });
    const scoped = await gw.createKey({
      name: 'idem scoped',
      allowedSessions: [(await gw.createSession()).id],
    });

    expect((await send({ chatId, text: 'x' }, '', { key: null })).status).toBe(401);
    expect((await send({ chatId, text: 'x' }, 'scope', { key: viewer.key })).status).toBe(403);
    expect((await send({ chatId, text: 'x' }, 'scope', { key: scoped.key })).status).toBe(403);
    const unknown = await send({ chatId, text: 'x' }, 'scope', {
      id: '00000000-0000-4000-8000-000000000001',
    });
    expect(unknown.status).toBe(404);
  });

  it("deletes a session's keys with the session", async () => {
    const doomed = await readySession('15550005555');
    const sent = await send({ chatId: freshChat(), text: 'bye' }, 'doomed-key', { id: doomed });
    expect(sent.status).toBe(201);
    // A claim with another body writes nothing and shows the key the send stored.
    const standing = await withGatewayDataStore(gw, (data) =>
      data.sendIdempotency.claim(
        { sessionId: doomed, key: 'doomed-key', requestHash: 'another hash', messageId: 'another message' },
        new Date(),
      ),
    );
    expect(standing).toMatchObject({ claimed: false, existing: { messageId: sent.body.id } });

    expect((await gw.request('DELETE', `/api/sessions/${doomed}`)).status).toBe(204);
    expect(await withGatewayDataStore(gw, (data) => data.sendIdempotency.deleteBySession(doomed))).toBe(0);
  });

  it('describes the header, its 409 and 422 answers and Idempotent-Replayed in the OpenAPI document', async () => {
    const doc = (await gw.request('GET', '/api/openapi.json', { key: null })).body;
    const op = doc.paths['/api/sessions/{sessionId}/messages/send-text'].post;
    expect(op.parameters).toContainEqual(
      expect.objectContaining({
        name: 'Idempotency-Key',
        in: 'header',
        required: false,
        schema: expect.objectContaining({ type: 'string', pattern: '^[\\x21-\\x7E]{1,255}$' }),
      }),
    );
    expect(op.responses['409'].description).toContain('IDEMPOTENCY_KEY_IN_PROGRESS');
    expect(op.responses['422'].description).toContain('IDEMPOTENCY_KEY_REUSED');
    expect(op.responses['201'].headers['Idempotent-Replayed'].schema).toEqual({
      type: 'string',
      enum: ['true'],
    });
    const list = doc.paths['/api/sessions/{sessionId}/messages'].get;
    expect(JSON.stringify(list)).not.toContain('Idempotency-Key');
  });
});
