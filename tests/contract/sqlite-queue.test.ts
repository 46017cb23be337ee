import fs from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { Worker } from 'node:worker_threads';
import Database from 'better-sqlite3';
import { build } from 'esbuild';
import { openEmbeddedQueues } from '#shared/adapters/embedded-queue/open-embedded-queues.js';
import { shareWakeupsAcrossThreads } from '#shared/adapters/embedded-queue/queue-wakeups.js';
import { TestClock } from '#tests/helpers/test-clock.js';

// Another thread has its own SQLite connection and its own module state (no shared in-process notifier), so it
// stands in for a second process. It runs the real adapter, bundled from source for plain Node.
const WORKER_SOURCE = `
import { parentPort, workerData } from 'node:worker_threads';
import { openEmbeddedQueues } from './shared/adapters/embedded-queue/open-embedded-queues.ts';
import { shareWakeupsAcrossThreads } from './shared/adapters/embedded-queue/queue-wakeups.ts';

const { file, role, share } = workerData;
const stopSharing = share ? shareWakeupsAcrossThreads() : () => undefined;
const { queues, close } = openEmbeddedQueues(file, { jobs: { fifo: false, visibilityTimeoutSeconds: 300 } });
if (role === 'consume') {
  parentPort.postMessage('ready');
  await new Promise((resolve) => parentPort.once('message', resolve));
  const ids = [];
  for (;;) {
    const batch = await queues.jobs.receive({ maxMessages: 10 });
    if (batch.length === 0) break;
    for (const message of batch) ids.push(message.id);
    // Stands for the work done between receives; without it one thread can hold the lock back to back.
    await new Promise((resolve) => setTimeout(resolve, 1));
  }
  parentPort.postMessage(ids);
} else {
  await queues.jobs.send({ body: 'from-another-thread' });
  parentPort.postMessage('sent');
}
await close();
stopSharing();
`;

const JOBS = { jobs: { fifo: false, visibilityTimeoutSeconds: 300 } };

let dir: string;
let workerFile: string;

beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'waygate-sqlite-queue-'));
  workerFile = path.join(dir, 'queue-worker.mjs');
  const root = process.cwd();
  const sqliteEntry = createRequire(path.join(root, 'package.json')).resolve('better-sqlite3');
  await build({
    stdin: { contents: WORKER_SOURCE, resolveDir: root, loader: 'ts' },
    bundle: true,
    platform: 'node',
    format: 'esm',
    outfile: workerFile,
    logLevel: 'silent',
    // The native driver stays outside the bundle, imported by absolute path from the temp folder.
    plugins: [
      {
        name: 'native-sqlite',
        setup(plugin) {
          plugin.onResolve({ filter: /^better-sqlite3$/ }, () => ({ path: sqliteEntry, external: true }));
        },
      },
    ],
  });
});
afterAll(() => {
  fs.rmSync(dir, { recursive: true, force: true });
});

/** Deduplication rows in a queue file, read through a connection of its own. */
function dedupRows(file: string): string[] {
  const db = new Database(file, { readonly: true });
  try {
    return db
      .prepare<[], { dedup_id: string }>('SELECT dedup_id FROM queue_dedup ORDER BY dedup_id')
      .all()
      .map((row) => row.dedup_id);
  } finally {
    db.close();
  }
}

/** Polls `read` every 10 ms until it equals `expected` (or the deadline passes); answers its last value. */
async function eventually<T>(read: () => T, expected: T, timeoutMs = 5_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let value = read();
  while (JSON.stringify(value) !== JSON.stringify(expected) && Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 10));
    value = read();
  }
  return value;
}

const FIVE_MINUTES = 5 * 60_000;

function startWorker(file: string, role: 'consume' | 'send', share = false): Worker {
  return new Worker(workerFile, { workerData: { file, role, share } });
}

function nextMessage<T>(worker: Worker): Promise<T> {
  return new Promise((resolve, reject) => {
    worker.once('message', resolve);
    worker.once('error', reject);
  });
}

describe('SqliteQueue across connections', () => {
  it('two connections receiving concurrently never get the same message in one visibility window', async () => {
    const file = path.join(dir, 'concurrent.db');
    const { queues, close } = openEmbeddedQueues(file, JOBS);
    const sent = new Set<string>();
    for (let i = 0; i < 600; i += 1) sent.add((await queues.jobs.send({ body: `m${i}` })).id);
    await close();

    const workers = [startWorker(file, 'consume'), startWorker(file, 'consume')];
    try {
      await Promise.all(workers.map((worker) => nextMessage<string>(worker)));
      const results = workers.map((worker) => nextMessage<string[]>(worker));
      // Released together so both receive loops overlap.
      for (const worker of workers) worker.postMessage('go');
      const [first, second] = await Promise.all(results);
      const all = [...first!, ...second!];
      expect(new Set(all).size).toBe(all.length);
      expect(new Set(all)).toEqual(sent);
      // Both took part, or the test proved nothing about concurrency.
      expect(first!.length).toBeGreaterThan(0);
      expect(second!.length).toBeGreaterThan(0);
    } finally {
      await Promise.all(workers.map((worker) => worker.terminate()));
    }
  });

  it('a long poll sees a message sent through another connection by polling', async () => {
    const file = path.join(dir, 'poll.db');
    const { queues, close } = openEmbeddedQueues(file, { jobs: { ...JOBS.jobs, pollIntervalMs: 50 } });
    const worker = startWorker(file, 'send');
    try {
      const received = await queues.jobs.receive({ waitTimeSeconds: 10 });
      expect(received.map((message) => message.body)).toEqual(['from-another-thread']);
    } finally {
      await worker.terminate();
      await close();
    }
  });

  it('threads that share their wake-ups wake each other at once, not at the next poll (API_THREAD)', async () => {
    const file = path.join(dir, 'shared-wakeups.db');
    // A poll interval far past the test's limit: only the wake-up can deliver the message in time.
    const { queues, close } = openEmbeddedQueues(file, { jobs: { ...JOBS.jobs, pollIntervalMs: 60_000 } });
    const stopSharing = shareWakeupsAcrossThreads();
    const worker = startWorker(file, 'send', true);
    try {
      // Without the wake-up this long poll ends empty after 4 s.
      const received = await queues.jobs.receive({ waitTimeSeconds: 4 });
      expect(received.map((message) => message.body)).toEqual(['from-another-thread']);
    } finally {
      stopSharing();
      await worker.terminate();
      await close();
    }
  });

  it('messages, in-flight state and receive counts survive closing and reopening the file', async () => {
    const file = path.join(dir, 'durable.db');
    const clock = new TestClock();
    const before = openEmbeddedQueues(
      file,
      { jobs: { fifo: true, visibilityTimeoutSeconds: 30 } },
      { clock },
    );
    for (const body of ['1', '2', '3']) await before.queues.jobs.send({ body, groupId: 'g' });
    await before.queues.jobs.send({ body: 'other', groupId: 'h' });
    const [inFlight] = await before.queues.jobs.receive();
    await before.close();

    const after = openEmbeddedQueues(file, { jobs: { fifo: true, visibilityTimeoutSeconds: 30 } }, { clock });
    try {
      expect(await after.queues.jobs.depth()).toBe(4);
      // Group g is still blocked by the message in flight before the restart.
      expect((await after.queues.jobs.receive({ maxMessages: 10 })).map((message) => message.body)).toEqual([
        'other',
      ]);
      clock.advance(30_000);
      expect(await after.queues.jobs.receive()).toMatchObject([
        { id: inFlight!.id, body: '1', receiveCount: 2 },
      ]);
    } finally {
      await after.close();
    }
  });

  it('close ends a pending long poll with []', async () => {
    const { queues, close } = openEmbeddedQueues(path.join(dir, 'close.db'), JOBS);
    const pending = queues.jobs.receive({ waitTimeSeconds: 10 });
    await close();
    expect(await pending).toEqual([]);
  });
});

describe('SqliteQueue deduplication window', () => {
  const FIFO = { jobs: { fifo: true, visibilityTimeoutSeconds: 30 } };

  it('deletes deduplication ids past their 5-minute window on its schedule, with no send needed', async () => {
    const file = path.join(dir, 'dedup-prune.db');
    const clock = new TestClock();
    const { queues, close } = openEmbeddedQueues(file, FIFO, { clock, dedupPruneIntervalMs: 10 });
    try {
      for (const id of ['a', 'b', 'c']) await queues.jobs.send({ body: id, groupId: 'g', dedupId: id });
      expect(dedupRows(file)).toEqual(['a', 'b', 'c']);
      clock.advance(FIVE_MINUTES);
      expect(await eventually(() => dedupRows(file), [])).toEqual([]);
    } finally {
      await close();
    }
  });

  it('keeps suppressing a duplicate within its window while older ids are pruned around it', async () => {
    const file = path.join(dir, 'dedup-window.db');
    const clock = new TestClock();
    const { queues, close } = openEmbeddedQueues(file, FIFO, { clock, dedupPruneIntervalMs: 10 });
    try {
      await queues.jobs.send({ body: 'old', groupId: 'g', dedupId: 'old' });
      clock.advance(4 * 60_000);
      const first = await queues.jobs.send({ body: 'new', groupId: 'g', dedupId: 'new' });
      clock.advance(2 * 60_000);
      expect(await eventually(() => dedupRows(file), ['new'])).toEqual(['new']);
      const again = await queues.jobs.send({ body: 'new again', groupId: 'g', dedupId: 'new' });
      expect(again.id).toBe(first.id);
      expect(await queues.jobs.depth()).toBe(2);
    } finally {
      await close();
    }
  });

  it('an id whose window passed before the prune ran is a new message, and its row now holds the new one', async () => {
    const file = path.join(dir, 'dedup-expired.db');
    const clock = new TestClock();
    // The schedule never runs within the test: the send alone must treat the expired row as gone.
    const { queues, close } = openEmbeddedQueues(file, FIFO, { clock, dedupPruneIntervalMs: 3_600_000 });
    try {
      const first = await queues.jobs.send({ body: 'a', groupId: 'g', dedupId: 'd' });
      clock.advance(FIVE_MINUTES);
      const second = await queues.jobs.send({ body: 'b', groupId: 'g', dedupId: 'd' });
      expect(second.id).not.toBe(first.id);
      clock.advance(60_000);
      expect((await queues.jobs.send({ body: 'c', groupId: 'g', dedupId: 'd' })).id).toBe(second.id);
    } finally {
      await close();
    }
  });
});

describe('SqliteQueue receive cost', () => {
  /** Microseconds per call of `fn` over one batch of 200 calls. */
  async function batch(fn: () => Promise<unknown>): Promise<number> {
    const started = process.hrtime.bigint();
    for (let i = 0; i < 200; i++) await fn();
    return Number(process.hrtime.bigint() - started) / 200_000;
  }

  it('an empty receive costs a few single-row queries, not a fresh parse and plan of its statement', async () => {
    const { queues, close } = openEmbeddedQueues(path.join(dir, 'receive-cost.db'), {
      jobs: { fifo: true, visibilityTimeoutSeconds: 30 },
    });
    try {
      // Measured side by side on the same file: a receive (one transaction, one select) against depth() (one
      // COUNT). A statement SQLite re-prepares on every binding made receive about 8 times dearer; it is about 2.
      // Each round times one batch of each back to back, so both meet the same load from other processes; the
      // median of the rounds' ratios leaves out the rounds where only one of the two was slowed.
      const ratios: number[] = [];
      for (let round = 0; round < 25; round++) {
        const receive = await batch(() => queues.jobs.receive());
        const depth = await batch(() => queues.jobs.depth());
        ratios.push(receive / depth);
      }
      ratios.sort((a, b) => a - b);
      expect(ratios[Math.floor(ratios.length / 2)]).toBeLessThan(4);
    } finally {
      await close();
    }
  });
});
