import { MemoryQueue } from '#shared/adapters/memory/memory-queue.js';
import { queueContract } from './queue.contract.js';

queueContract('memory', async ({ fifo, visibilityTimeoutSeconds, maxReceiveCount, clock }) => {
  // A poll interval far above the 1 s long-poll test proves that a send wakes a waiter directly.
  const shape = { fifo, visibilityTimeoutSeconds, clock, pollIntervalMs: 5_000 };
  const deadLetters = maxReceiveCount === undefined ? undefined : new MemoryQueue({ name: 'dead', ...shape });
  const queue = new MemoryQueue({ name: 'main', ...shape, maxReceiveCount, deadLetterQueue: deadLetters });
  return { queue, deadLetters, close: async () => {} };
});
