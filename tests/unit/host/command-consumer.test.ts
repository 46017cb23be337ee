/**
 * The command consumer against a FIFO memory queue, which (like SQS FIFO) hands out several messages of one group in
 * one receive: a session's commands run one after the other in queue order, other sessions' alongside, and a retried
 * failure holds back the rest of its session's commands until it has run again.
 */
import { afterEach, describe, expect, it } from '@jest/globals';
import { CommandConsumer } from '#host/commands/command-consumer.js';
import { MemoryQueue } from '#shared/adapters/memory/memory-queue.js';
import type { CommandOf } from '#shared/domain/commands.js';
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

function setUp(send: (command: CommandOf<'message.send'>) => Promise<void>) {
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
  );
  const enqueue = (sessionId: string, n: number) =>
    commands.send({
      type: 'message.send',
      sessionId,
      messageId: messageId(n),
      requestedAt: new Date().toISOString(),
    });
  return { clock, queue, consumer, enqueue };
}

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
});
