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

/** The statements `work` runs through the driver (better-sqlite3 itself, the adapter's included), in order. */
async function statementsRunBy(work: () => Promise<unknown>): Promise<{ sql: string; args: unknown[] }[]> {
  const probe = new Database(':memory:');
  const prototype = Object.getPrototypeOf(probe.prepare('SELECT 1')) as Record<string, unknown>;
  probe.close();
  const runs: { sql: string; args: unknown[] }[] = [];
  const originals = Object.fromEntries(
    ['run', 'get', 'all', 'iterate'].map((name) => [name, prototype[name]]),
  );
  for (const [name, original] of Object.entries(originals)) {
    prototype[name] = function recorded(this: Database.Statement, ...args: unknown[]) {
      runs.push({ sql: this.source, args });
      return (original as (...a: unknown[]) => unknown).apply(this, args);
    };
  }
  try {
    await work();
  } finally {
    Object.assign(prototype, originals);
  }
  return runs;
}

// What a receive costs is measured by tests/bench/queue-receive.mjs, never timed here. What keeps an empty receive
// (the host's idle poll) cheap is proven on the statements it runs: one select that walks the queue's rows in
// arrival order by index (no other queue's rows, no sort), whose only bound value is the clock. This SQLite is built
// with STAT4: a statement whose LIMIT, or whose queue name beside ORDER BY … LIMIT, is a bound value is re-planned
// (re-prepared) on every call, which made a receive about 8 times dearer than the COUNT of depth(), so both are part
// of its text.
describe('SqliteQueue receive plan', () => {
  it.each([
    ['FIFO', true],
    ['standard', false],
  ])('an empty %s receive runs one select, by index, binding the clock alone', async (kind, fifo) => {
    const file = path.join(dir, `receive-plan-${kind}.db`);
    const { queues, close } = openEmbeddedQueues(file, { jobs: { fifo, visibilityTimeoutSeconds: 30 } });
    try {
      const runs = await statementsRunBy(() => queues.jobs.receive());
      const queries = runs.filter(({ sql }) => !/^(BEGIN|COMMIT|ROLLBACK|SAVEPOINT|RELEASE)\b/.test(sql));
      expect(queries).toEqual([
        { sql: expect.stringMatching(/^SELECT /), args: [{ now: expect.any(Number) }] },
      ]);
      const [select] = queries;
      const db = new Database(file, { readonly: true });
      try {
        const plan = db
          .prepare<[{ now: number }], { detail: string }>(`EXPLAIN QUERY PLAN ${select?.sql}`)
          .all({ now: 0 })
          .map((step) => step.detail);
        expect(plan[0]).toMatch(/^SEARCH m USING INDEX queue_messages_order \(queue=\?\)$/);
        const other = /^(SEARCH \w+ USING (COVERING )?INDEX |CORRELATED SCALAR SUBQUERY)/;
        expect(plan.filter((step) => !other.test(step))).toEqual([]);
      } finally {
        db.close();
      }
    } finally {
      await close();
    }
  });
});
