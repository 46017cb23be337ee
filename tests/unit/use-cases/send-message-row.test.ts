/**
 * The row a send stores before it queues the command: pending, under a pre-generated network id, and stamped with
 * the time it was written (epoch seconds), as WhatsApp stamps a message when it is composed; the host sends it under
 * that time, so history orders a pending message where it belongs.
 */
import { describe, expect, it } from '@jest/globals';
import { InProcessMessageOutcomes } from '#shared/adapters/memory/in-process-message-outcomes.js';
import { MemoryQueue } from '#shared/adapters/memory/memory-queue.js';
import { createMemoryDataStore } from '#shared/adapters/memory/memory-stores.js';
import { SYSTEM_CALLER } from '#shared/domain/caller.js';
import { silentLogger } from '#shared/ports/logger.port.js';
import type { Queue } from '#shared/ports/queue.port.js';
import { CommandQueue } from '#shared/queue/command-queue.js';
import { sendMessage } from '#shared/use-cases/messages/send-message.js';
import { aMessage, aSession } from '#tests/helpers/builders.js';
import { TestClock } from '#tests/helpers/test-clock.js';

describe('sendMessage (the stored row)', () => {
  it('marks a message whose command cannot be queued failed, its message.failed stored with the write', async () => {
    const data = createMemoryDataStore();
    const clock = new TestClock();
    const session = aSession({ status: 'ready', phone: '15550001111' });
    await data.sessions.create(session);
    const down = { name: 'down', send: () => Promise.reject(new Error('queue down')) } as unknown as Queue;
    const deps = {
      data,
      commands: new CommandQueue(down),
      outcomes: new InProcessMessageOutcomes(),
      clock,
      logger: silentLogger,
    };
    const request = { chatId: '15550009999@c.us', content: { type: 'text', text: 'hi' } } as const;
    await expect(sendMessage(deps, SYSTEM_CALLER, session.id, request, 0)).rejects.toMatchObject({
      status: 503,
      code: 'DEPENDENCY_UNAVAILABLE',
    });
    const { messages } = await data.messages.list({ sessionId: session.id }, { limit: 10, offset: 0 });
    const [failed] = messages;
    expect(failed?.status).toBe('failed');
    const due = new Date(clock.now().getTime() + 60_000);
    const entries = await data.outbox.claimStale({ olderThan: due, now: due, limit: 10 });
    expect(entries.map((entry) => entry.event)).toEqual([
      {
        event: 'message.failed',
        sessionId: session.id,
        occurredAt: clock.now().toISOString(),
        data: {
          id: failed?.id,
          messageId: failed?.waMessageId,
          chatId: '15550009999@c.us',
          status: 'failed',
          ack: -1,
          recipient: { phone: '15550009999@c.us', lid: null },
          error: 'the command queue is unavailable',
        },
      },
    ]);
  });

  it('stores the message pending, stamped with the time it was written, and lists it newest first', async () => {
    const data = createMemoryDataStore();
    const clock = new TestClock();
    const session = aSession({ status: 'ready', phone: '15550001111' });
    await data.sessions.create(session);
    const older = aMessage({
      sessionId: session.id,
      timestamp: Math.floor(clock.now().getTime() / 1000) - 60,
    });
    await data.messages.insert(older);
    clock.advance(1500);
    const queue = new MemoryQueue({ name: 'commands', fifo: true, visibilityTimeoutSeconds: 30 });
    const deps = {
      data,
      commands: new CommandQueue(queue),
      outcomes: new InProcessMessageOutcomes(),
      clock,
      logger: silentLogger,
    };
    const message = await sendMessage(
      deps,
      SYSTEM_CALLER,
      session.id,
      { chatId: '15550009999@c.us', content: { type: 'text', text: 'hi' } },
      0,
    );
    expect(message).toMatchObject({
      status: 'pending',
      timestamp: Math.floor(clock.now().getTime() / 1000),
      createdAt: clock.now().toISOString(),
    });
    expect(message.waMessageId).toMatch(/^3EB0[0-9A-F]+$/);
    const { messages } = await data.messages.list({ sessionId: session.id }, { limit: 10, offset: 0 });
    expect(messages.map((row) => row.id)).toEqual([message.id, older.id]);
    expect(await queue.depth()).toBe(1);
  });
});
