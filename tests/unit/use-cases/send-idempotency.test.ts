/**
 * Sends under an Idempotency-Key, against the memory stores and a memory command queue: the request hash, a retry
 * answered with the first message (never a second row or command), another body refused (422), a claimant still
 * between claim and insert (409) or dead (taken over after the grace), keys given up when nothing was queued, and
 * concurrent requests with one key.
 */
import { beforeEach, describe, expect, it } from '@jest/globals';
import { InProcessMessageOutcomes } from '#shared/adapters/memory/in-process-message-outcomes.js';
import { MemoryQueue } from '#shared/adapters/memory/memory-queue.js';
import { createMemoryDataStore } from '#shared/adapters/memory/memory-stores.js';
import { SYSTEM_CALLER } from '#shared/domain/caller.js';
import type { Session } from '#shared/domain/session.js';
import { silentLogger } from '#shared/ports/logger.port.js';
import type { Queue } from '#shared/ports/queue.port.js';
import type { DataStore } from '#shared/ports/stores.port.js';
import { CommandQueue } from '#shared/queue/command-queue.js';
import { IDEMPOTENCY_TAKEOVER_MS, sendRequestHash } from '#shared/use-cases/messages/send-idempotency.js';
import { type SendDeps, type SendRequest, sendOrReplay } from '#shared/use-cases/messages/send-message.js';
import { aSession } from '#tests/helpers/builders.js';
import { TestClock } from '#tests/helpers/test-clock.js';

const CHAT = '15550009999@c.us';
const text = (body: string, idempotencyKey?: string): SendRequest => ({
  chatId: CHAT,
  content: { type: 'text', text: body },
  ...(idempotencyKey === undefined ? {} : { idempotencyKey }),
});

describe('sendRequestHash', () => {
  it('is the same for the same request whatever the order of its fields, at every depth', () => {
    const a = sendRequestHash({
      chatId: CHAT,
      content: { type: 'text', text: 'hi @1555', mentions: ['15550001111@c.us'] },
      metadata: { autoreply: 'r1', nested: { x: 1, y: [1, 2] } },
    });
    const b = sendRequestHash({
      metadata: { nested: { y: [1, 2], x: 1 }, autoreply: 'r1' },
      content: { mentions: ['15550001111@c.us'], text: 'hi @1555', type: 'text' },
      chatId: CHAT,
    });
    expect(a).toMatch(/^[0-9a-f]{64}$/);
    expect(b).toBe(a);
  });

  it('differs when the chat, the content, the metadata or the order of a list differs', () => {
    const base = { chatId: CHAT, content: { type: 'text', list: [1, 2] }, metadata: { a: 1 } };
    const hashes = [
      base,
      { ...base, chatId: '15550008888@c.us' },
      { ...base, content: { type: 'text', list: [2, 1] } },
      { ...base, metadata: { a: 2 } },
      { chatId: CHAT, content: base.content },
    ].map(sendRequestHash);
    expect(new Set(hashes).size).toBe(hashes.length);
  });
});

describe('sendOrReplay with an idempotency key', () => {
  let data: DataStore;
  let queue: MemoryQueue;
  let clock: TestClock;
  let outcomes: InProcessMessageOutcomes;
  let deps: SendDeps;
  let session: Session;

  beforeEach(async () => {
    data = createMemoryDataStore();
    queue = new MemoryQueue({ name: 'commands', fifo: true, visibilityTimeoutSeconds: 30 });
    clock = new TestClock();
    outcomes = new InProcessMessageOutcomes();
    deps = { data, commands: new CommandQueue(queue), outcomes, clock, logger: silentLogger };
    session = aSession({ status: 'ready', phone: '15550001111' });
    await data.sessions.create(session);
  });

  const send = (request: SendRequest, waitMs = 0, using = deps) =>
    sendOrReplay(using, SYSTEM_CALLER, session.id, request, waitMs);
  const rows = async () =>
    (await data.messages.list({ sessionId: session.id }, { limit: 100, offset: 0 })).messages;

  it('answers a retry with the first message, marked replayed, storing and queueing it once', async () => {
    const first = await send(text('hello', 'k1'));
    const retry = await send(text('hello', 'k1'));

    expect(first.replayed).toBe(false);
    expect(retry).toEqual({ message: first.message, replayed: true });
    expect((await rows()).map((m) => m.id)).toEqual([first.message.id]);
    expect(await queue.depth()).toBe(1);
  });

  it('sends every request without a key, and requests with different keys', async () => {
    await send(text('hello'));
    await send(text('hello'));
    await send(text('hello', 'a'));
    await send(text('hello', 'b'));
    expect(await rows()).toHaveLength(4);
    expect(await queue.depth()).toBe(4);
  });

  it('refuses the key with another body (422 IDEMPOTENCY_KEY_REUSED), storing nothing', async () => {
    await send(text('hello', 'k1'));
    await expect(send(text('hello!', 'k1'))).rejects.toMatchObject({
      status: 422,
      code: 'IDEMPOTENCY_KEY_REUSED',
    });
    await expect(send({ ...text('hello', 'k1'), chatId: '15550008888@c.us' })).rejects.toMatchObject({
      status: 422,
    });
    expect(await rows()).toHaveLength(1);
    expect(await queue.depth()).toBe(1);
  });

  it('replays even when the session is no longer ready, and gives a refused send’s key up', async () => {
    const first = await send(text('hello', 'k1'));
    await data.sessions.update(session.id, { status: 'disconnected' });

    expect(await send(text('hello', 'k1'))).toEqual({ message: first.message, replayed: true });
    await expect(send(text('other', 'k2'))).rejects.toMatchObject({ status: 400, code: 'SESSION_NOT_READY' });

    await data.sessions.update(session.id, { status: 'ready' });
    const later = await send(text('other', 'k2'));
    expect(later.replayed).toBe(false);
    expect(await rows()).toHaveLength(2);
  });

  it('answers 409 while the claimant has not stored its message, and takes a dead claim over after the grace', async () => {
    // A claimant that died between its claim and its insert.
    const { claimed } = await data.sendIdempotency.claim(
      {
        sessionId: session.id,
        key: 'k1',
        requestHash: sendRequestHash(text('hello')),
        messageId: '80000000-0000-4000-8000-000000000001',
      },
      clock.now(),
    );
    expect(claimed).toBe(true);

    clock.advance(IDEMPOTENCY_TAKEOVER_MS - 1);
    await expect(send(text('hello', 'k1'))).rejects.toMatchObject({
      status: 409,
      code: 'IDEMPOTENCY_KEY_IN_PROGRESS',
      retryable: true,
    });
    await expect(send(text('bye', 'k1'))).rejects.toMatchObject({ status: 422 });
    expect(await rows()).toHaveLength(0);

    clock.advance(1);
    const taken = await send(text('hello', 'k1'));
    expect(taken.replayed).toBe(false);
    expect(await send(text('hello', 'k1'))).toEqual({ message: taken.message, replayed: true });
    expect(await rows()).toHaveLength(1);
    expect(await queue.depth()).toBe(1);
  });

  it('gives the key up when the command queue fails, so the retry sends', async () => {
    const down = { name: 'down', send: () => Promise.reject(new Error('queue down')) } as unknown as Queue;
    const failing = { ...deps, commands: new CommandQueue(down) };
    await expect(send(text('hello', 'k1'), 0, failing)).rejects.toMatchObject({
      status: 503,
      code: 'DEPENDENCY_UNAVAILABLE',
    });
    expect((await rows()).map((m) => m.status)).toEqual(['failed']);

    const retry = await send(text('hello', 'k1'));
    expect(retry.replayed).toBe(false);
    expect(retry.message.status).toBe('pending');
    expect(await queue.depth()).toBe(1);
  });

  it('queues a pending first message again when its request died before queueing it; the retry sends it', async () => {
    // The first request's process dies between the row and its command: its enqueue never returns.
    const dying = { name: 'dying', send: () => new Promise(() => {}) } as unknown as Queue;
    void send(text('hello', 'k1'), 0, { ...deps, commands: new CommandQueue(dying) });
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect((await rows()).map((m) => m.status)).toEqual(['pending']);
    expect(await queue.depth()).toBe(0);

    const retry = await send(text('hello', 'k1'));
    expect(retry).toMatchObject({ replayed: true, message: { status: 'pending' } });
    const [queued] = await queue.receive({ maxMessages: 10 });
    expect(JSON.parse(queued?.body ?? '{}')).toMatchObject({
      type: 'message.send',
      messageId: retry.message.id,
    });
    // Once its command is queued, a further retry adds none (same deduplication id).
    await send(text('hello', 'k1'));
    expect(await queue.depth()).toBe(1);
  });

  it('gives the key up when the row cannot be stored, so the retry sends', async () => {
    const messages = Object.assign(Object.create(data.messages), {
      insert: () => Promise.reject(new Error('store down')),
    });
    await expect(send(text('hello', 'k1'), 0, { ...deps, data: { ...data, messages } })).rejects.toThrow(
      'store down',
    );
    expect((await send(text('hello', 'k1'))).replayed).toBe(false);
    expect(await rows()).toHaveLength(1);
  });

  it('waits for a pending first message to settle before replaying it, like the first request', async () => {
    const first = await send(text('hello', 'k1'));
    expect(first.message.status).toBe('pending');

    const retry = send(text('hello', 'k1'), 5_000);
    await new Promise((resolve) => setTimeout(resolve, 20));
    await data.messages.advanceStatus(session.id, first.message.waMessageId ?? '', 'sent', 1_790_000_000);
    outcomes.notify(session.id, first.message.id);

    expect(await retry).toMatchObject({ replayed: true, message: { id: first.message.id, status: 'sent' } });
  });

  it('lets concurrent requests with one key store and queue one message; the others replay it or get 409', async () => {
    const results = await Promise.allSettled(Array.from({ length: 6 }, () => send(text('hello', 'race'))));
    const [row, ...others] = await rows();
    expect(others).toHaveLength(0);
    expect(await queue.depth()).toBe(1);
    for (const result of results) {
      if (result.status === 'fulfilled') expect(result.value.message.id).toBe(row?.id);
      else expect(result.reason).toMatchObject({ status: 409, code: 'IDEMPOTENCY_KEY_IN_PROGRESS' });
    }
    expect(results.filter((r) => r.status === 'fulfilled' && !r.value.replayed)).toHaveLength(1);
  });

  it('keeps keys per session', async () => {
    const other = aSession({ status: 'ready', phone: '15550002222' });
    await data.sessions.create(other);
    const mine = await send(text('hello', 'k1'));
    const theirs = await sendOrReplay(deps, SYSTEM_CALLER, other.id, text('hello', 'k1'), 0);
    expect(theirs.replayed).toBe(false);
    expect(theirs.message.id).not.toBe(mine.message.id);
  });
});
