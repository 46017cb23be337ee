// The embedded queue's empty receive (the host's idle poll), timed against a COUNT of the same queue on the same file:
// a receive is one IMMEDIATE transaction and one select, depth() one COUNT, so their ratio stays near 2 while the
// select's plan is kept; a statement SQLite re-plans on every binding (a bound LIMIT, or a bound queue name beside
// ORDER BY … LIMIT in this STAT4 build) made receive about 8 times dearer. Each round takes the CPU time of one batch
// of each back to back, so both meet the same load from other processes; the median of the rounds' ratios leaves out
// the rounds where only one of the two was slowed (wall time on a loaded machine put the ratio anywhere from 2.5 to
// 12; CPU time holds it at 2.4–2.6). A FIFO queue (its receive gates groups with a correlated subquery) and a standard
// one are measured apart. tests/contract/sqlite-queue.test.ts proves the plan itself (no timing there).

import fs from 'node:fs';
import path from 'node:path';
import { built, median, tempDataDir } from './support.mjs';

const ROUNDS = Number(process.env.BENCH_QUEUE_ROUNDS ?? 25);
const CALLS = 200;

/**
 * Microseconds of this process's CPU per call of `fn` over one batch of CALLS calls: CPU time rather than wall time,
 * so that the time other processes hold the cores is left out (neither call waits on I/O: an empty receive writes
 * nothing, so its commit appends nothing to the WAL).
 */
async function batch(fn) {
  const started = process.cpuUsage();
  for (let i = 0; i < CALLS; i++) await fn();
  const used = process.cpuUsage(started);
  return (used.user + used.system) / CALLS;
}

const round = (n) => Math.round(n * 100) / 100;

async function measure(openEmbeddedQueues, file, fifo) {
  const { queues, close } = openEmbeddedQueues(file, { jobs: { fifo, visibilityTimeoutSeconds: 30 } });
  try {
    // The statements are prepared on first use: one warm-up batch each before the rounds.
    await batch(() => queues.jobs.receive());
    await batch(() => queues.jobs.depth());
    const receive = [];
    const depth = [];
    const ratios = [];
    for (let i = 0; i < ROUNDS; i++) {
      receive.push(await batch(() => queues.jobs.receive()));
      depth.push(await batch(() => queues.jobs.depth()));
      ratios.push(receive.at(-1) / depth.at(-1));
    }
    return {
      emptyReceiveUs: round(median(receive)),
      depthUs: round(median(depth)),
      receiveToDepth: round(median(ratios)),
    };
  } finally {
    await close();
  }
}

export async function queueReceive() {
  const { openEmbeddedQueues } = await built('adapters/embedded-queue/open-embedded-queues.js');
  const dir = tempDataDir();
  try {
    return {
      rounds: ROUNDS,
      callsPerBatch: CALLS,
      fifo: await measure(openEmbeddedQueues, path.join(dir, 'fifo.db'), true),
      standard: await measure(openEmbeddedQueues, path.join(dir, 'standard.db'), false),
    };
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}
