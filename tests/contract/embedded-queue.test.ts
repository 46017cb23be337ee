import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { openEmbeddedQueues } from '#shared/adapters/embedded-queue/open-embedded-queues.js';
import { queueContract } from './queue.contract.js';

let dir: string;
let files = 0;

beforeAll(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'waygate-queue-'));
});
afterAll(() => {
  fs.rmSync(dir, { recursive: true, force: true });
});

queueContract('embedded (SQLite)', async ({ fifo, visibilityTimeoutSeconds, maxReceiveCount, clock }) => {
  files += 1;
  // A poll interval far above the 1 s long-poll test proves that a send wakes a waiter through the notifier.
  const shape = { fifo, visibilityTimeoutSeconds, pollIntervalMs: 5_000 };
  const redrive = maxReceiveCount === undefined ? {} : { maxReceiveCount, deadLetterQueue: 'dead' as const };
  const { queues, close } = openEmbeddedQueues(
    path.join(dir, `queue-${files}.db`),
    { main: { ...shape, ...redrive }, dead: shape },
    { clock },
  );
  return { queue: queues.main, deadLetters: maxReceiveCount === undefined ? undefined : queues.dead, close };
});
