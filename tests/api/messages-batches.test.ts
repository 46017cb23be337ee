/**
 * Message batches through the HTTP API to the test engine: send-bulk answers 202 and the host sends the items one
 * by one (variables rendered, one result per item, progress adding up), stopOnError, a cancel mid-batch, the error
 * codes, roles and session scope of the three routes, and a host restart mid-batch that resumes from the batch's
 * index without sending any item twice.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import {
  type ApiResponse,
  startTestGateway,
  type TestGateway,
  waitFor,
} from '#tests/helpers/test-gateway.js';
import { expectError, expectValidation, linkedSession, UNKNOWN_ID } from './sessions-support.js';

/** A batch's delay is at least a second (openwa's minimum): tests keep batches to a few items. */
const FAST = { delayBetweenMessages: 1000, randomizeDelay: false };

interface BatchBody {
  batchId: string;
  status: string;
  progress: { total: number; sent: number; failed: number; pending: number; cancelled: number };
  results: {
    chatId: string;
    status: string;
    messageId?: string;
    error?: { code: string };
    sentAt?: string;
  }[];
  startedAt: string | null;
  completedAt: string | null;
}

/** `n` chats of the batch named `tag`, so each test counts its own sends. */
const chats = (tag: number, n: number) => Array.from({ length: n }, (_c, i) => `1555${tag}00${10 + i}@c.us`);
const text = (chatId: string, body: string, variables?: Record<string, string>) => ({
  chatId,
  type: 'text',
  content: { text: body },
  ...(variables ? { variables } : {}),
});

describe('messages: batches (send-bulk)', () => {
  let gw: TestGateway;
  let sessionId: string;

  beforeAll(async () => {
    gw = await startTestGateway();
    sessionId = (await linkedSession(gw, {}, { phone: '15550003333', pushName: 'Me' })).id;
  });
  afterAll(async () => {
    await gw.close();
  });

  const bulk = (body: unknown, options: { key?: string; id?: string } = {}) =>
    gw.request('POST', `/api/sessions/${options.id ?? sessionId}/messages/send-bulk`, {
      body,
      ...(options.key ? { key: options.key } : {}),
    });
  const status = (batchId: string, options: { key?: string; id?: string } = {}) =>
    gw.request<BatchBody>('GET', `/api/sessions/${options.id ?? sessionId}/messages/batch/${batchId}`, {
      ...(options.key ? { key: options.key } : {}),
    });
  const cancel = (batchId: string, options: { key?: string; id?: string } = {}) =>
    gw.request('POST', `/api/sessions/${options.id ?? sessionId}/messages/batch/${batchId}/cancel`, {
      ...(options.key ? { key: options.key } : {}),
    });
  const until = (batchId: string, wanted: (body: BatchBody) => boolean, timeoutMs = 15_000) =>
    waitFor(
      async () => {
        const res = await status(batchId);
        return res.status === 200 && wanted(res.body) ? res.body : null;
      },
      timeoutMs,
      100,
    );
  const finished = (batchId: string) => until(batchId, (body) => body.completedAt !== null);
  const sentTo = (chatIds: readonly string[]) =>
    (gw.network.sent.get(sessionId) ?? []).filter((message) => chatIds.includes(message.chatId));

  it('answers 202 and sends every item in order, variables filled in, with one result per item', async () => {
    const to = chats(1, 3);
    const res = await bulk({
      batchId: 'welcome-1',
      messages: [
        text(to[0]!, 'Hi {{ name }}, your code is {{code}}', { name: 'Ada', code: '42' }),
        text(to[1]!, 'Hi {{ name }}', { name: 'Bo' }),
        text(to[2]!, 'Literal {{ braces }} stay'),
      ],
      options: FAST,
    });
    expect(res.status).toBe(202);
    expect(res.body).toEqual({
      batchId: 'welcome-1',
      status: 'pending',
      totalMessages: 3,
      estimatedCompletionTime: expect.any(String),
      statusUrl: `/api/sessions/${sessionId}/messages/batch/welcome-1`,
    });
    const estimate = Date.parse(res.body.estimatedCompletionTime) - Date.now();
    expect(estimate).toBeGreaterThan(1000);
    expect(estimate).toBeLessThanOrEqual(3000);

    const done = await finished('welcome-1');
    expect(done).toMatchObject({
      batchId: 'welcome-1',
      status: 'completed',
      progress: { total: 3, sent: 3, failed: 0, pending: 0, cancelled: 0 },
      startedAt: expect.any(String),
    });
    expect(sentTo(to).map((message) => [message.chatId, message.content])).toEqual([
      [to[0], { type: 'text', text: 'Hi Ada, your code is 42' }],
      [to[1], { type: 'text', text: 'Hi Bo' }],
      [to[2], { type: 'text', text: 'Literal {{ braces }} stay' }],
    ]);
    expect(done.results.map((result) => [result.chatId, result.status])).toEqual(to.map((c) => [c, 'sent']));
    const history = (await gw.request('GET', `/api/sessions/${sessionId}/messages?limit=1000`)).body.messages;
    for (const [index, result] of done.results.entries()) {
      expect(result.sentAt).toEqual(expect.any(String));
      const row = history.find(
        (message: { waMessageId: string }) => message.waMessageId === result.messageId,
      );
      expect(row).toMatchObject({ status: 'sent', metadata: { batch: { batchId: 'welcome-1', index } } });
    }
    // Finished: a cancel is refused, the status stays.
    expectError(await cancel('welcome-1'), 400, 'BATCH_FINISHED');
    expect((await status('welcome-1')).body).toEqual(done);
  });

  it('goes on after a failed item, and with stopOnError fails there, cancelling the rest', async () => {
    const to = chats(2, 3);
    gw.network.refusedChats.add(to[1]!);
    try {
      const messages = to.map((chatId) => text(chatId, 'offer'));
      expect((await bulk({ batchId: 'on-error-go', messages, options: FAST })).status).toBe(202);
      expect(
        (await bulk({ batchId: 'on-error-stop', messages, options: { ...FAST, stopOnError: true } })).status,
      ).toBe(202);
      const going = await finished('on-error-go');
      const stopped = await finished('on-error-stop');
      expect(going).toMatchObject({ status: 'completed', progress: { sent: 2, failed: 1, cancelled: 0 } });
      expect(going.results[1]).toMatchObject({
        chatId: to[1],
        status: 'failed',
        error: { code: 'SEND_FAILED' },
      });
      expect(stopped).toMatchObject({
        status: 'failed',
        progress: { total: 3, sent: 1, failed: 1, pending: 0, cancelled: 1 },
      });
      expect(stopped.results.map((result) => result.status)).toEqual(['sent', 'failed']);
      // The item after the failure went out for the first batch only.
      expect(sentTo([to[2]!])).toHaveLength(1);
    } finally {
      gw.network.refusedChats.delete(to[1]!);
    }
  });

  it('cancels mid-batch: the unsent items are counted cancelled and never sent', async () => {
    const to = chats(3, 3);
    const messages = to.map((chatId) => text(chatId, 'slow'));
    expect(
      (await bulk({ batchId: 'to-cancel', messages, options: { ...FAST, delayBetweenMessages: 2000 } }))
        .status,
    ).toBe(202);
    await until('to-cancel', (body) => body.progress.sent === 1);
    const res = await cancel('to-cancel');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      batchId: 'to-cancel',
      status: 'cancelled',
      progress: { total: 3, sent: 1, failed: 0, pending: 0, cancelled: 2 },
    });
    await new Promise((resolve) => setTimeout(resolve, 2500));
    expect(sentTo(to)).toHaveLength(1);
    expect((await status('to-cancel')).body).toMatchObject({
      status: 'cancelled',
      progress: { sent: 1, cancelled: 2 },
      results: [{ chatId: to[0], status: 'sent' }],
      completedAt: expect.any(String),
    });
    expectError(await cancel('to-cancel'), 400, 'BATCH_FINISHED');
  });

  it('refuses bad requests: duplicate batchId, over 100 items, unknown item types, bad options, unknown batch', async () => {
    const one = [text(chats(4, 1)[0]!, 'x')];
    expect((await bulk({ batchId: 'dup', messages: one, options: FAST })).status).toBe(202);
    expectError(await bulk({ batchId: 'dup', messages: one }), 400, 'BATCH_ID_TAKEN');
    expectValidation(await bulk({ messages: Array.from({ length: 101 }, () => one[0]) }), 'body.messages');
    const sticker = await bulk({
      messages: [{ chatId: one[0]!.chatId, type: 'sticker', content: { caption: 'x' } }],
    });
    expectValidation(sticker, 'body.messages.0.type');
    expect(JSON.stringify(sticker.body)).toContain('type must be one of text, image, video, audio, document');
    expectValidation(
      await bulk({ messages: one, options: { delayBetweenMessages: 500 } }),
      'body.options.delayBetweenMessages',
    );
    expectValidation(await bulk({ messages: one, batchId: '..' }), 'body.batchId');
    const missing = await bulk({ messages: [text(one[0]!.chatId, 'Hi {{name}}', {})] });
    expect(expectError(missing, 400, 'TEMPLATE_VARIABLES_MISSING').message).toMatch(/^messages\[0\]: /);
    expectError(await status('no-such-batch'), 404, 'NOT_FOUND');
    expectError(await cancel('no-such-batch'), 404, 'NOT_FOUND');
    expectValidation(await status('a%2Fb'), 'path.batchId');
  });

  it('refuses a session that is not ready with 400 SESSION_NOT_READY', async () => {
    const idle = await gw.createSession();
    const res = await bulk({ messages: [text(chats(5, 1)[0]!, 'x')] }, { id: idle.id });
    expectError(res, 400, 'SESSION_NOT_READY');
  });

  it('lets a viewer read a batch but not send or cancel one; other sessions’ keys get 403, unknown sessions 404', async () => {
    expect(
      (await bulk({ batchId: 'access', messages: [text(chats(6, 1)[0]!, 'x')], options: FAST })).status,
    ).toBe(202);
    const viewer = (await gw.createKey({ name: 'batch viewer', role: 'viewer' })).key;
    const other = (await gw.createSession()).id;
    const scoped = (await gw.createKey({ name: 'batch scoped', role: 'operator', allowedSessions: [other] }))
      .key;
    const own = (await gw.createKey({ name: 'batch own', role: 'operator', allowedSessions: [sessionId] }))
      .key;
    const body = { messages: [text(chats(6, 1)[0]!, 'y')], options: FAST };

    const noKey: ApiResponse = await gw.request('GET', `/api/sessions/${sessionId}/messages/batch/access`, {
      key: null,
    });
    expectError(noKey, 401, 'UNAUTHORIZED');
    expect((await status('access', { key: viewer })).status).toBe(200);
    expectError(await bulk(body, { key: viewer }), 403, 'FORBIDDEN_ROLE');
    expectError(await cancel('access', { key: viewer }), 403, 'FORBIDDEN_ROLE');
    expectError(await status('access', { key: scoped }), 403, 'FORBIDDEN_SESSION');
    expectError(await bulk(body, { key: scoped }), 403, 'FORBIDDEN_SESSION');
    expectError(await cancel('access', { key: scoped }), 403, 'FORBIDDEN_SESSION');
    expectError(await status('access', { id: UNKNOWN_ID }), 404, 'NOT_FOUND');
    expectError(await bulk(body, { id: UNKNOWN_ID }), 404, 'NOT_FOUND');
    expectError(await cancel('access', { id: UNKNOWN_ID }), 404, 'NOT_FOUND');
    // Another session's batch of the same name is not this one.
    expectError(await status('access', { id: other }), 404, 'NOT_FOUND');

    expect((await status('access', { key: own })).status).toBe(200);
    expect((await bulk({ ...body, batchId: 'own' }, { key: own })).status).toBe(202);
    await finished('access');
    await finished('own');
  });

  it('resumes a batch after a host restart from where it got to, sending no item twice', async () => {
    const to = chats(7, 4);
    const messages = to.map((chatId, i) => text(chatId, `item {{i}}`, { i: String(i) }));
    expect((await bulk({ batchId: 'survivor', messages, options: FAST })).status).toBe(202);
    await waitFor(() => sentTo(to).length >= 1, 10_000);
    const before = (await status('survivor')).body;
    expect(before.status).toBe('processing');
    expect(before.progress.pending).toBeGreaterThan(0);

    gw = await gw.restart();
    const done = await finished('survivor');
    expect(done).toMatchObject({
      status: 'completed',
      startedAt: before.startedAt,
      progress: { total: 4, sent: 4, failed: 0, pending: 0, cancelled: 0 },
    });
    expect(done.results.map((result) => result.chatId)).toEqual(to);
    // Every chat got its message exactly once, in order, across the restart.
    expect(sentTo(to).map((message) => [message.chatId, message.content])).toEqual(
      to.map((chatId, i) => [chatId, { type: 'text', text: `item ${i}` }]),
    );
    const history = (await gw.request('GET', `/api/sessions/${sessionId}/messages?limit=1000`)).body.messages;
    const rows = history.filter((message: { chatId: string }) => to.includes(message.chatId));
    expect(rows).toHaveLength(4);
  });
});
