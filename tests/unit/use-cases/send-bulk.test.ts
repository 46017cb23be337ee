/**
 * send-bulk, get and cancel against the memory stores and a memory command queue: a batch is stored pending and one
 * `batch.run` command queued (nothing sent yet), duplicates collapse, an item that does not render names its index,
 * the concurrency cap answers 429, a queue failure ends the batch and answers 503, and a cancel counts the unsent
 * items and is refused once the batch finished.
 */
import { beforeEach, describe, expect, it } from '@jest/globals';
import { MemoryQueue } from '#shared/adapters/memory/memory-queue.js';
import { createMemoryDataStore } from '#shared/adapters/memory/memory-stores.js';
import { SYSTEM_CALLER } from '#shared/domain/caller.js';
import { SendBulkBody, versionOf } from '#shared/domain/message-batch.js';
import type { Session } from '#shared/domain/session.js';
import { silentLogger } from '#shared/ports/logger.port.js';
import type { Queue } from '#shared/ports/queue.port.js';
import type { DataStore } from '#shared/ports/stores.port.js';
import { CommandQueue } from '#shared/queue/command-queue.js';
import { cancelBatch, getBatch } from '#shared/use-cases/messages/message-batches.js';
import { type BulkDeps, sendBulk } from '#shared/use-cases/messages/send-bulk.js';
import { aSession } from '#tests/helpers/builders.js';
import { TestClock } from '#tests/helpers/test-clock.js';

let data: DataStore;
let queue: MemoryQueue;
let clock: TestClock;
let session: Session;
let deps: BulkDeps;

beforeEach(async () => {
  data = createMemoryDataStore();
  queue = new MemoryQueue({ name: 'commands', fifo: true, visibilityTimeoutSeconds: 30 });
  clock = new TestClock();
  session = aSession({ status: 'ready', phone: '15550009999' });
  await data.sessions.create(session);
  deps = { data, commands: new CommandQueue(queue), clock, logger: silentLogger };
});

const item = (chatId: string, text: string, variables?: Record<string, string>) => ({
  chatId,
  type: 'text',
  content: { text },
  ...(variables ? { variables } : {}),
});
const bulk = (body: Record<string, unknown>, max = 50, on = deps) =>
  sendBulk(on, SYSTEM_CALLER, session.id, SendBulkBody.parse(body), max);

describe('sendBulk', () => {
  it('stores the batch pending, queues one batch.run command and answers where to follow it', async () => {
    const accepted = await bulk({
      batchId: 'promo-1',
      messages: [item('15550001000@c.us', 'Hi {{name}}', { name: 'Ada' }), item('15550001001@c.us', 'Hello')],
      options: { delayBetweenMessages: 2000 },
    });
    expect(accepted).toEqual({
      batchId: 'promo-1',
      status: 'pending',
      totalMessages: 2,
      estimatedCompletionTime: new Date(clock.now().getTime() + 4000).toISOString(),
      statusUrl: `/api/sessions/${session.id}/messages/batch/promo-1`,
    });
    expect(await getBatch(deps, SYSTEM_CALLER, session.id, 'promo-1')).toEqual({
      batchId: 'promo-1',
      status: 'pending',
      progress: { total: 2, sent: 0, failed: 0, pending: 2, cancelled: 0 },
      results: [],
      startedAt: null,
      completedAt: null,
    });
    const [received] = await deps.commands.receive({ maxMessages: 10, waitTimeSeconds: 0 });
    expect(received).toMatchObject({
      ok: true,
      command: { type: 'batch.run', sessionId: session.id, batchId: 'promo-1' },
    });
    expect(await queue.depth()).toBe(1);
    expect((await data.messages.list({ sessionId: session.id }, { limit: 10, offset: 0 })).total).toBe(0);
  });

  it('names a batch batch_<hex> when the request does not, and sends exact duplicate items once', async () => {
    const same = item('15550001000@c.us', 'Hi');
    const accepted = await bulk({ messages: [same, same, item('15550001000@c.us', 'Hi again'), same] });
    expect(accepted.batchId).toMatch(/^batch_[0-9a-f]{16}$/);
    expect(accepted.totalMessages).toBe(2);
    const stored = await data.batches.find(session.id, accepted.batchId);
    expect(stored?.messages.map((message) => 'text' in message.content && message.content.text)).toEqual([
      'Hi',
      'Hi again',
    ]);
  });

  it('refuses the whole request, naming the item, when a text does not render', async () => {
    const messages = [item('15550001000@c.us', 'ok'), item('15550001001@c.us', 'Hi {{name}} {{day}}', {})];
    await expect(bulk({ messages })).rejects.toMatchObject({
      status: 400,
      code: 'TEMPLATE_VARIABLES_MISSING',
      message: 'messages[1]: Template variables missing: name, day',
      details: { index: 1, missing: ['name', 'day'] },
    });
    expect(await data.batches.countUnfinished()).toBe(0);
  });

  it('refuses a session that is not ready (or needs action) and a taken batchId', async () => {
    const body = { batchId: 'b', messages: [item('15550001000@c.us', 'x')] };
    await bulk(body);
    await expect(bulk(body)).rejects.toMatchObject({ status: 400, code: 'BATCH_ID_TAKEN' });
    for (const status of ['disconnected', 'action_required'] as const) {
      await data.sessions.update(session.id, { status });
      await expect(bulk({ messages: body.messages })).rejects.toMatchObject({
        status: 400,
        code: 'SESSION_NOT_READY',
      });
    }
  });

  it('answers 429 BATCH_LIMIT while the cap of unfinished batches is reached, across sessions', async () => {
    const messages = [item('15550001000@c.us', 'x')];
    await bulk({ messages }, 2);
    const other = aSession({ status: 'ready', phone: '15550008888' });
    await data.sessions.create(other);
    await sendBulk(deps, SYSTEM_CALLER, other.id, SendBulkBody.parse({ messages }), 2);
    const refusal = bulk({ messages }, 2);
    await expect(refusal).rejects.toMatchObject({
      status: 429,
      code: 'BATCH_LIMIT',
      headers: { 'retry-after': '30' },
    });
    const first = (await data.batches.listUnfinished(session.id))[0]!;
    await cancelBatch(deps, SYSTEM_CALLER, session.id, first.batchId);
    expect((await bulk({ messages }, 2)).status).toBe('pending');
  });

  it('ends the batch and answers 503 when the command cannot be queued, so it never starts later', async () => {
    const down = { name: 'down', send: () => Promise.reject(new Error('queue down')) } as unknown as Queue;
    const failing = { ...deps, commands: new CommandQueue(down) };
    const body = { batchId: 'lost', messages: [item('15550001000@c.us', 'x')] };
    await expect(bulk(body, 50, failing)).rejects.toMatchObject({
      status: 503,
      code: 'DEPENDENCY_UNAVAILABLE',
    });
    expect(await getBatch(deps, SYSTEM_CALLER, session.id, 'lost')).toMatchObject({
      status: 'failed',
      progress: { pending: 0, cancelled: 1 },
    });
    expect(await data.batches.countUnfinished()).toBe(0);
  });
});

describe('cancelBatch', () => {
  it('cancels the unsent items at once, then refuses with BATCH_FINISHED; unknown batches are 404', async () => {
    await bulk({ batchId: 'c', messages: [item('15550001000@c.us', 'a'), item('15550001001@c.us', 'b')] });
    const cancelled = await cancelBatch(deps, SYSTEM_CALLER, session.id, 'c');
    expect(cancelled).toEqual({
      batchId: 'c',
      status: 'cancelled',
      progress: { total: 2, sent: 0, failed: 0, pending: 0, cancelled: 2 },
    });
    expect((await getBatch(deps, SYSTEM_CALLER, session.id, 'c')).completedAt).toBe(
      clock.now().toISOString(),
    );
    await expect(cancelBatch(deps, SYSTEM_CALLER, session.id, 'c')).rejects.toMatchObject({
      status: 400,
      code: 'BATCH_FINISHED',
      details: { status: 'cancelled' },
    });
    await expect(cancelBatch(deps, SYSTEM_CALLER, session.id, 'nope')).rejects.toMatchObject({ status: 404 });
    await expect(getBatch(deps, SYSTEM_CALLER, session.id, 'nope')).rejects.toMatchObject({ status: 404 });
  });

  it('applies the cancel to what the host recorded meanwhile instead of overwriting it', async () => {
    await bulk({ batchId: 'r', messages: [item('15550001000@c.us', 'a'), item('15550001001@c.us', 'b')] });
    const stored = (await data.batches.find(session.id, 'r'))!;
    // The host records item 0 between the cancel's read and its write: the cancel's first write loses, and it
    // reads again.
    const find = data.batches.find.bind(data.batches);
    let reads = 0;
    data.batches.find = async (sessionId, batchId) => {
      const read = await find(sessionId, batchId);
      reads += 1;
      if (reads === 1) {
        const recorded = {
          ...stored,
          status: 'processing' as const,
          currentIndex: 1,
          results: [{ chatId: '15550001000@c.us', status: 'sent' as const }],
          progress: { ...stored.progress, sent: 1, pending: 1 },
        };
        expect(await data.batches.update(recorded, versionOf(stored))).toBe(true);
      }
      return read;
    };
    expect(await cancelBatch(deps, SYSTEM_CALLER, session.id, 'r')).toMatchObject({
      status: 'cancelled',
      progress: { total: 2, sent: 1, pending: 0, cancelled: 1 },
    });
    expect(reads).toBe(2);
  });
});
