/**
 * The command consumer against a FIFO memory queue, which (like SQS FIFO) hands out several messages of one group in
 * one receive: a session's commands run one after the other in queue order, other sessions' alongside, and a retried
 * failure holds back the rest of its session's commands until it has run again. With a send-run handler, a
 * session's consecutive sends go to it together. Stopping (SIGTERM) finishes the command under way and hands the
 * rest of what was received back to the queue at once.
 */
import { afterEach, describe, expect, it } from '@jest/globals';
import { CommandConsumer, type SendRunHandler } from '#host/commands/command-consumer.js';
import { MemoryQueue } from '#shared/adapters/memory/memory-queue.js';
import type { CommandOf } from '#shared/domain/commands.js';
import { ValidationError } from '#shared/errors/app-error.js';
import { createMetrics } from '#shared/observability/metrics.js';
import { silentLogger } from '#shared/ports/logger.port.js';
import { CommandQueue } from '#shared/queue/command-queue.js';
import { TestClock } from '#tests/helpers/test-clock.js';

const SESSION_A = '0b6e6a52-1f7e-4a38-9d6e-3d1b2f0c9a11';
const SESSION_B = '7d1f3c2e-5a6b-4c8d-9e0f-1a2b3c4d5e6f';
const messageId = (n: number) => `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`;

const turns = async (n = 50) => {
  for (let i = 0; i < n; i++) await new Promise((resolve) => setImmediate(resolve));
};
async function until(probe: () => boolean | Promise<boolean>, what: string): Promise<void> {
  for (let i = 0; i < 2000; i++) {
    if (await probe()) return;
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
  throw new Error(`never happened: ${what}`);
}

let consumer: CommandConsumer | null = null;
afterEach(async () => {
  await consumer?.stop();
  consumer = null;
});

function setUp(send: (command: CommandOf<'message.send'>) => Promise<void>, sendRun?: SendRunHandler) {
  const clock = new TestClock();
  const queue = new MemoryQueue({
    name: 'commands.fifo',
    fifo: true,
    visibilityTimeoutSeconds: 30,
    clock,
    pollIntervalMs: 5,
  });
  const commands = new CommandQueue(queue);
  consumer = new CommandConsumer(
    commands,
    { 'message.send': send, 'session.start': async () => {}, 'batch.run': async () => {} },
    silentLogger,
    createMetrics(),
    { waitTimeSeconds: 1, visibilityTimeoutSeconds: 30, maxMessages: 10 },
    sendRun,
  );
  const enqueue = (sessionId: string, n: number) =>
    commands.send({
      type: 'message.send',
      sessionId,
      messageId: messageId(n),
      requestedAt: new Date().toISOString(),
    });
  const start = (sessionId: string) =>
    commands.send({
      type: 'session.start',
      sessionId,
      reason: 'requested',
      requestedAt: new Date().toISOString(),
    });
  return { clock, queue, consumer, enqueue, start };
}

const numbers = (commands: readonly CommandOf<'message.send'>[]) =>
  commands.map((command) => Number(command.messageId.slice(-4)));

describe('CommandConsumer', () => {
  it("runs one session's commands in queue order and other sessions' alongside", async () => {
    const log: string[] = [];
    let releaseFirst: () => void = () => {};
    const first = new Promise<void>((resolve) => {
      releaseFirst = resolve;
    });
    const { queue, consumer, enqueue } = setUp(async (command) => {
      const n = Number(command.messageId.slice(-4));
      log.push(`start ${n}`);
      if (n === 1) await first;
      log.push(`end ${n}`);
    });
    await enqueue(SESSION_A, 1);
    await enqueue(SESSION_A, 2);
    await enqueue(SESSION_B, 3);
    consumer.start();
    await until(() => log.includes('end 3'), 'the other session ran');
    await turns();
    expect(log).toEqual(['start 1', 'start 3', 'end 3']);
    releaseFirst();
    await until(() => log.includes('end 2'), 'the second command ran');
    expect(log).toEqual(['start 1', 'start 3', 'end 3', 'end 1', 'start 2', 'end 2']);
    await until(async () => (await queue.depth()) === 0, 'every command acked');
  });

  it("a retried failure holds back the rest of its session's commands, which then run after it", async () => {
    const log: string[] = [];
    let failures = 1;
    const { clock, queue, consumer, enqueue } = setUp(async (command) => {
      const n = Number(command.messageId.slice(-4));
      log.push(`run ${n}`);
      if (n === 1 && failures-- > 0) throw new Error('engine busy');
    });
    await enqueue(SESSION_A, 1);
    await enqueue(SESSION_A, 2);
    await enqueue(SESSION_B, 3);
    consumer.start();
    await until(() => log.includes('run 3'), 'the other session ran');
    await turns();
    expect(log).toEqual(['run 1', 'run 3']);
    // The failed command and the one behind it reappear after the visibility timeout, still in order.
    clock.advance(31_000);
    await until(() => log.includes('run 2'), 'the held-back command ran');
    expect(log).toEqual(['run 1', 'run 3', 'run 1', 'run 2']);
    await until(async () => (await queue.depth()) === 0, 'every command acked');
  });

  it("hands a session's consecutive sends to the send-run handler together, in order, and acks them", async () => {
    const runs: number[][] = [];
    const singles: number[] = [];
    const { queue, consumer, enqueue, start } = setUp(
      async (command) => {
        singles.push(Number(command.messageId.slice(-4)));
      },
      async (commands) => {
        runs.push(numbers(commands));
        return { done: commands.length };
      },
    );
    await enqueue(SESSION_A, 1);
    await enqueue(SESSION_A, 2);
    await enqueue(SESSION_A, 3);
    await start(SESSION_A);
    await enqueue(SESSION_A, 4);
    await enqueue(SESSION_A, 5);
    await enqueue(SESSION_B, 6);
    consumer.start();
    await until(async () => (await queue.depth()) === 0, 'every command acked');
    // A run ends at a command of another type; a lone send goes to the ordinary handler.
    expect(runs).toEqual([
      [1, 2, 3],
      [4, 5],
    ]);
    expect(singles).toEqual([6]);
  });

  it('a run that stops: what it did is acked, a refusal is dropped and the rest go on, a failure holds them back', async () => {
    const runs: number[][] = [];
    let calls = 0;
    const { clock, queue, consumer, enqueue } = setUp(
      async () => {},
      async (commands) => {
        runs.push(numbers(commands));
        calls += 1;
        // First: the second is refused for good. Then: the second of the rest fails for now.
        if (calls === 1) return { done: 1, error: new ValidationError('refused') };
        if (calls === 2) return { done: 1, error: new Error('engine busy') };
        return { done: commands.length };
      },
    );
    for (const n of [1, 2, 3, 4, 5]) await enqueue(SESSION_A, n);
    consumer.start();
    await until(() => runs.length === 2, 'the rest of the run went on after the refusal');
    expect(runs).toEqual([
      [1, 2, 3, 4, 5],
      [3, 4, 5],
    ]);
    await turns();
    // 1 and 3 done, 2 dropped; 4 and 5 wait for their redelivery.
    expect(await queue.depth()).toBe(2);
    clock.advance(31_000);
    await until(() => runs.length === 3, 'the held-back sends ran again');
    expect(runs[2]).toEqual([4, 5]);
    await until(async () => (await queue.depth()) === 0, 'every command acked');
  });

  it('stop finishes the command under way and hands what was received but not begun back at once', async () => {
    const ran: number[] = [];
    let releaseFirst: () => void = () => {};
    const first = new Promise<void>((resolve) => {
      releaseFirst = resolve;
    });
    const { queue, consumer, enqueue } = setUp(async (command) => {
      const n = Number(command.messageId.slice(-4));
      ran.push(n);
      if (n === 1) await first;
    });
    await enqueue(SESSION_A, 1);
    await enqueue(SESSION_A, 2);
    await enqueue(SESSION_A, 3);
    consumer.start();
    await until(() => ran.length === 1, 'the first command began');
    const stopped = consumer.stop();
    releaseFirst();
    await stopped;
    expect(ran).toEqual([1]);
    // 2 and 3 are visible again now, without waiting out their 30-s visibility timeout (the clock never moved).
    expect(await queue.depth()).toBe(2);
    const again = await queue.receive({ maxMessages: 10, waitTimeSeconds: 0 });
    expect(again.map((m) => Number(JSON.parse(m.body).messageId.slice(-4)))).toEqual([2, 3]);
  });
});
