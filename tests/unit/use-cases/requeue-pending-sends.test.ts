/**
 * When a session's engine is launched, its newest outgoing rows still pending get their send command again (a crash
 * between a send's row and its command orphans the row): oldest first, one command per row even when the row's
 * first command is still queued, and only within the newest rows it is asked to read.
 */
import { beforeEach, describe, expect, it } from '@jest/globals';
import { MemoryQueue } from '#shared/adapters/memory/memory-queue.js';
import { createMemoryDataStore } from '#shared/adapters/memory/memory-stores.js';
import type { Message } from '#shared/domain/message.js';
import type { DataStore } from '#shared/ports/stores.port.js';
import { CommandQueue } from '#shared/queue/command-queue.js';
import { queueSend } from '#shared/use-cases/messages/queue-send.js';
import { requeuePendingSends } from '#shared/use-cases/messages/requeue-pending-sends.js';
import { aMessage, aSession } from '#tests/helpers/builders.js';

const session = aSession({ status: 'ready', phone: '15550001111' });
const OWN = '15550001111@c.us';
const CONTACT = '15550009999@c.us';

let data: DataStore;
let queue: MemoryQueue;
let commands: CommandQueue;

beforeEach(async () => {
  data = createMemoryDataStore();
  queue = new MemoryQueue({ name: 'commands', fifo: true, visibilityTimeoutSeconds: 30 });
  commands = new CommandQueue(queue);
  await data.sessions.create(session);
});

let second = 0;
async function row(overrides: Partial<Message>): Promise<Message> {
  second += 1;
  const message = aMessage({
    sessionId: session.id,
    from: OWN,
    to: CONTACT,
    chatId: CONTACT,
    direction: 'outgoing',
    timestamp: 1_790_000_000 + second,
    ...overrides,
  });
  await data.messages.insert(message);
  return message;
}

async function queued(): Promise<string[]> {
  const received = await queue.receive({ maxMessages: 10 });
  return received.map((message) => (JSON.parse(message.body) as { messageId: string }).messageId);
}

describe('requeuePendingSends', () => {
  it("queues the session's pending outgoing rows again, oldest first, once each", async () => {
    const first = await row({ status: 'pending' });
    await row({ status: 'sent' });
    await row({ direction: 'incoming', from: CONTACT, to: OWN, status: 'delivered' });
    const second = await row({ status: 'pending' });
    const stillQueued = await row({ status: 'pending' });
    await queueSend(commands, stillQueued);

    expect(await requeuePendingSends({ data, commands }, session)).toBe(3);
    // The row whose command was still queued keeps its one command.
    expect(await queued()).toEqual([stillQueued.id, first.id, second.id]);
  });

  it('reads only the newest rows it is asked to, and nothing for a session never linked', async () => {
    await row({ status: 'pending' });
    await row({ status: 'sent' });
    const recent = await row({ status: 'pending' });
    expect(await requeuePendingSends({ data, commands }, session, 2)).toBe(1);
    expect(await queued()).toEqual([recent.id]);
    expect(await requeuePendingSends({ data, commands }, { id: session.id, phone: null })).toBe(0);
  });
});
