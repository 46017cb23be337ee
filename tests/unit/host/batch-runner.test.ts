/**
 * The batch runner against the memory data store, with a fake host behind the command queue that carries out each
 * `message.send` (sent, or failed for a refused chat) and tells the outcome: items go out in order through the
 * ordinary send path with the delay between them; a run resumes from `currentIndex`; an item whose send began
 * before the run stopped is answered again, never sent twice; a cancel stops the batch before its next item;
 * stopOnError fails it; a batch waits for its session to be ready and pauses when the session leaves this host.
 */
import { beforeEach, describe, expect, it } from '@jest/globals';
import { runBatch } from '#host/batches/batch-runner.js';
import { cancelledBatch, type MessageBatch, versionOf } from '#shared/domain/message-batch.js';
import { SendPacingLimitedError } from '#shared/errors/app-error.js';
import type { SendPacer } from '#shared/use-cases/messages/send-pacing.js';
import { aBatch } from '#tests/helpers/builders.js';
import { FakeBatchHost } from '#tests/helpers/fake-batch-host.js';

let host: FakeBatchHost;

beforeEach(async () => {
  host = await new FakeBatchHost().start();
});

const stored = (overrides: Partial<MessageBatch> = {}, items = 3) => host.stored(overrides, items);

const run = (batch: MessageBatch, signal = new AbortController().signal) =>
  runBatch(host.deps, host.session.id, batch.batchId, signal);
const reread = (batch: MessageBatch) => host.reread(batch);
const cancel = async (batch: MessageBatch) => {
  const current = await reread(batch);
  expect(await host.data.batches.update(cancelledBatch(current, 'now'), versionOf(current))).toBe(true);
};

describe('runBatch', () => {
  it('sends every item in order through the send path, waits the delay between items, and completes', async () => {
    const batch = await stored();
    expect(await run(batch)).toBe('finished');

    expect(host.sent).toEqual([
      { chatId: '15550001000@c.us', text: 'Hi Ada 0 #0' },
      { chatId: '15550001001@c.us', text: 'Hi Ada 1 #1' },
      { chatId: '15550001002@c.us', text: 'Hi Ada 2 #2' },
    ]);
    expect(host.sleeps).toEqual([1000, 1000]);
    const done = await reread(batch);
    expect(done).toMatchObject({
      status: 'completed',
      currentIndex: 3,
      progress: { total: 3, sent: 3, failed: 0, pending: 0, cancelled: 0 },
    });
    expect(done.startedAt).not.toBeNull();
    expect(done.completedAt).not.toBeNull();
    const { messages } = await host.data.messages.list(
      { sessionId: host.session.id },
      { limit: 10, offset: 0 },
    );
    for (const [index, result] of done.results.entries()) {
      const row = messages.find((message) => message.waMessageId === result.messageId);
      expect(row).toMatchObject({
        status: 'sent',
        chatId: result.chatId,
        metadata: { batch: { batchId: batch.batchId, index } },
      });
      // The message's own time: when the runner wrote its row (the host sends it under that time).
      expect(result).toMatchObject({
        status: 'sent',
        sentAt: new Date((row?.timestamp ?? 0) * 1000).toISOString(),
      });
      expect(row?.timestamp).toBe(Math.floor(host.deps.send.clock.now().getTime() / 1000));
    }
  });

  it('draws randomized delays between the delay and one and a half times it', async () => {
    const base = aBatch();
    await run(
      await stored({ options: { ...base.options, delayBetweenMessages: 2000, randomizeDelay: true } }),
    );
    expect(host.sleeps).toEqual([2500, 2500]);
  });

  it('resumes a processing batch from currentIndex', async () => {
    const batch = await stored();
    const started = { ...batch, status: 'processing' as const, startedAt: 'earlier' };
    await host.data.batches.update(started, versionOf(batch));
    const first = { chatId: '15550001000@c.us', status: 'sent' as const, messageId: 'WA-BEFORE' };
    const progressed = {
      ...started,
      currentIndex: 1,
      results: [first],
      progress: { ...batch.progress, sent: 1, pending: 2 },
    };
    await host.data.batches.update(progressed, versionOf(started));

    expect(await run(batch)).toBe('finished');
    expect(host.sent.map((message) => message.chatId)).toEqual(['15550001001@c.us', '15550001002@c.us']);
    const done = await reread(batch);
    expect(done).toMatchObject({ status: 'completed', startedAt: 'earlier', progress: { sent: 3 } });
    expect(done.results[0]).toEqual(first);
  });

  it('never sends an item twice: one whose send began before the run stopped is answered again', async () => {
    const batch = await stored();
    const stopping = new AbortController();
    // The host stops while the first item's send is queued; the send goes out after the run stopped waiting.
    host.onSendCommand = async () => {
      stopping.abort();
      host.onSendCommand = null;
      await new Promise((resolve) => setTimeout(resolve, 20));
    };
    expect(await run(batch, stopping.signal)).toBe('paused');
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(host.sent).toHaveLength(1);
    expect(await reread(batch)).toMatchObject({ status: 'processing', currentIndex: 0, results: [] });

    expect(await run(batch)).toBe('finished');
    expect(host.sent.map((message) => message.chatId)).toEqual([
      '15550001000@c.us',
      '15550001001@c.us',
      '15550001002@c.us',
    ]);
    const { messages, total } = await host.data.messages.list(
      { sessionId: host.session.id },
      { limit: 10, offset: 0 },
    );
    expect(total).toBe(3);
    const first = messages.find((message) => message.chatId === '15550001000@c.us');
    expect((await reread(batch)).results[0]).toMatchObject({ status: 'sent', messageId: first?.waMessageId });
  });

  it('stops before the next item once cancelled', async () => {
    const batch = await stored();
    host.onSleep = () => cancel(batch);
    expect(await run(batch)).toBe('finished');
    expect(host.sent).toHaveLength(1);
    expect(await reread(batch)).toMatchObject({
      status: 'cancelled',
      currentIndex: 1,
      progress: { total: 3, sent: 1, failed: 0, pending: 0, cancelled: 2 },
    });
  });

  it('records an item that was on its way when the batch was cancelled as what became of it', async () => {
    const batch = await stored();
    host.onSendCommand = async () => {
      host.onSendCommand = null;
      await cancel(batch);
    };
    expect(await run(batch)).toBe('finished');
    expect(host.sent).toHaveLength(1);
    expect(await reread(batch)).toMatchObject({
      status: 'cancelled',
      currentIndex: 1,
      results: [{ chatId: '15550001000@c.us', status: 'sent' }],
      progress: { sent: 1, pending: 0, cancelled: 2 },
    });
  });

  it('goes on after a failed item, and fails the batch there with stopOnError', async () => {
    host.refused.add('15550001001@c.us');
    const going = await stored();
    await run(going);
    expect(await reread(going)).toMatchObject({
      status: 'completed',
      progress: { sent: 2, failed: 1, pending: 0, cancelled: 0 },
    });
    expect((await reread(going)).results[1]).toMatchObject({
      status: 'failed',
      error: { code: 'SEND_FAILED' },
      messageId: expect.any(String),
    });

    host.sent = [];
    const stopping = await stored({ options: { ...going.options, stopOnError: true } });
    await run(stopping);
    expect(host.sent.map((message) => message.chatId)).toEqual(['15550001000@c.us']);
    expect(await reread(stopping)).toMatchObject({
      status: 'failed',
      currentIndex: 2,
      progress: { sent: 1, failed: 1, pending: 0, cancelled: 1 },
    });
  });

  it('waits while its session is not ready, and pauses with nothing sent when the session is not run here', async () => {
    const batch = await stored({}, 1);
    host.local = false;
    expect(await run(batch)).toBe('paused');
    expect(await reread(batch)).toMatchObject({ status: 'processing', currentIndex: 0 });
    expect(host.sent).toEqual([]);

    host.local = true;
    await host.data.sessions.update(host.session.id, { status: 'disconnected' });
    const running = run(batch);
    await new Promise((resolve) => setTimeout(resolve, 30));
    expect(host.sent).toEqual([]);
    expect(host.sleeps.length).toBeGreaterThan(0);
    await host.data.sessions.update(host.session.id, { status: 'ready' });
    expect(await running).toBe('finished');
    expect(host.sent).toHaveLength(1);
  });

  it('waits when the send path finds the session cannot send yet, then sends the item once', async () => {
    const batch = await stored({}, 1);
    // Ready by status, but not yet able to send (no phone): the send use case refuses until it can.
    await host.data.sessions.update(host.session.id, { phone: null });
    const running = run(batch);
    await new Promise((resolve) => setTimeout(resolve, 30));
    expect(host.sent).toEqual([]);
    await host.data.sessions.update(host.session.id, { phone: '15550009999' });
    expect(await running).toBe('finished');
    expect(host.sent).toHaveLength(1);
    expect(await reread(batch)).toMatchObject({ status: 'completed', progress: { sent: 1 } });
  });

  it('fails an item the send path refuses for good with its code, and goes on', async () => {
    const batch = await stored({
      messages: [
        { chatId: '15550001000@c.us', type: 'text', content: { text: 'Hi {{ missing }}' }, variables: {} },
        { chatId: '15550001001@c.us', type: 'text', content: { text: 'fine' } },
      ],
    });
    expect(await run(batch)).toBe('finished');
    expect(host.sent.map((message) => message.text)).toEqual(['fine']);
    expect(await reread(batch)).toMatchObject({
      status: 'completed',
      results: [
        { chatId: '15550001000@c.us', status: 'failed', error: { code: 'TEMPLATE_VARIABLES_MISSING' } },
        { chatId: '15550001001@c.us', status: 'sent' },
      ],
    });
  });

  it('waits the time a pacing refusal names before trying the item again', async () => {
    const batch = await stored({}, 1);
    let refusals = 1;
    const pacing = {
      admit: async () => {
        if (refusals-- > 0) throw new SendPacingLimitedError('Daily cap reached', 120, {});
      },
    } as unknown as SendPacer;
    const deps = { ...host.deps, send: { ...host.deps.send, pacing } };
    expect(await runBatch(deps, host.session.id, batch.batchId, new AbortController().signal)).toBe(
      'finished',
    );
    expect(host.sleeps[0]).toBe(120_000);
    expect(host.sent).toHaveLength(1);
    expect(await reread(batch)).toMatchObject({ status: 'completed', progress: { sent: 1 } });
  });

  it('honours a cancel that comes while an item waits to be tried again: the item is never sent', async () => {
    const batch = await stored({}, 2);
    const pacing = {
      admit: async () => {
        throw new SendPacingLimitedError('Daily cap reached', 60, {});
      },
    } as unknown as SendPacer;
    host.onSleep = () => cancel(batch);
    const deps = { ...host.deps, send: { ...host.deps.send, pacing } };
    await runBatch(deps, host.session.id, batch.batchId, new AbortController().signal);
    expect(host.sent).toEqual([]);
    expect(await reread(batch)).toMatchObject({
      status: 'cancelled',
      progress: { cancelled: 2 },
      results: [],
    });
  });

  it('finishes when the batch or its session is gone', async () => {
    const batch = await stored({}, 1);
    await host.data.batches.deleteBySession(host.session.id);
    expect(await run(batch)).toBe('finished');
    const orphan = await stored({}, 1);
    await host.data.sessions.delete(host.session.id);
    expect(await run(orphan)).toBe('finished');
    expect(host.sent).toEqual([]);
  });
});
