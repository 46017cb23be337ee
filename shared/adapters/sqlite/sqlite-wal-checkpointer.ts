/**
 * WAL checkpoints off the event loop. By default SQLite checkpoints inside the COMMIT that grows the WAL past 1,000
 * pages: the connection copies the WAL into the database file and syncs both, about 17 ms on this project's
 * machines, almost all of it waiting for the disk, and the thread that committed waits with it (the send
 * benchmark's REST phase: 36 such stalls per 3,000 sends, a fifth of a millisecond of every send). Here a worker
 * thread keeps a connection to each file and checkpoints it every CHECKPOINT_INTERVAL_MS (PASSIVE: it never blocks
 * a writer or a reader), while the event loop's connections checkpoint themselves only past FALLBACK_PAGES, should
 * the worker fall behind. What a checkpoint does and when the WAL is synced are unchanged, and so is durability.
 *
 * The worker's program is plain JavaScript run from a string (`eval`), so it needs no entry file of its own in any
 * build (dist, the benchmark's bundle, tsx or jest); it loads the driver from the path this module resolves. It is
 * unref'd, never keeps the process alive, and ends once no connection asks for it. It starts WORKER_START_DELAY_MS
 * after the first connection asks for it: a thread of its own with the driver and a connection per file is about
 * 0.1 s of CPU, which a gateway's start (whose stores open first) does not wait for; until then no WAL comes near the
 * fallback threshold.
 */
import { createRequire } from 'node:module';
import path from 'node:path';
import { isMainThread, Worker } from 'node:worker_threads';
import type Database from 'better-sqlite3';

/** How often the worker checkpoints each file: the most WAL a file gathers between two checkpoints. */
const CHECKPOINT_INTERVAL_MS = 200;
/** How long after the first connection the worker starts (see above). */
const WORKER_START_DELAY_MS = 1_000;
/** Where the event loop's connections checkpoint themselves after all (SQLite's default is 1,000 pages). */
export const FALLBACK_PAGES = 10_000;

/**
 * Messages to the worker: a file's first connection opened (`watch`) or its last closed (`release`); no file is
 * left (`stop`). The connections are counted here, so the worker only opens and closes its own.
 */
type ToWorker = { type: 'watch'; file: string } | { type: 'release'; file: string } | { type: 'stop' };

const WORKER_PROGRAM = `
const { parentPort, workerData } = require('node:worker_threads');
const Database = require(workerData.driver);
const files = new Map();
const timer = setInterval(() => {
  for (const db of files.values()) {
    // SQLITE_BUSY (another connection checkpoints) or a file gone: the next round tries again.
    try { db.pragma('wal_checkpoint(PASSIVE)'); } catch {}
  }
}, workerData.intervalMs);
const close = (db) => { try { db.close(); } catch {} };
parentPort.on('message', ({ type, file }) => {
  if (type === 'watch') {
    try { files.set(file, new Database(file, { fileMustExist: true })); } catch {}
  } else if (type === 'release') {
    if (files.has(file)) close(files.get(file));
    files.delete(file);
  } else {
    clearInterval(timer);
    for (const db of files.values()) close(db);
    parentPort.close();
  }
});
`;

let worker: Worker | null = null;
/** The timer that starts the worker, while it waits. */
let starting: NodeJS.Timeout | null = null;
/** Open connections per file handed to the worker. */
const connections = new Map<string, number>();

/** To the worker once it runs; before that nothing is sent: it watches every file counted here when it starts. */
function post(message: ToWorker): void {
  worker?.postMessage(message);
}

/** The driver's entry as this module's own import finds it, else as the working directory's packages have it. */
function driverPath(): string {
  try {
    return createRequire(import.meta.url).resolve('better-sqlite3');
  } catch {
    return createRequire(path.join(process.cwd(), 'package.json')).resolve('better-sqlite3');
  }
}

/** The checkpointer thread's name, as the OS shows it (`top -H`, /proc/<pid>/task/<tid>/comm). */
export const CHECKPOINTER_THREAD_NAME = 'waygate-sqlite';

function startWorker(driver: string): Worker {
  const started = new Worker(WORKER_PROGRAM, {
    eval: true,
    name: CHECKPOINTER_THREAD_NAME,
    workerData: { driver, intervalMs: CHECKPOINT_INTERVAL_MS },
  });
  started.unref();
  // A worker that fails is not replaced: the connections' own fallback checkpoints take over.
  started.on('error', () => undefined);
  started.on('exit', () => {
    if (worker === started) worker = null;
  });
  return started;
}

/**
 * Hands the checkpoints of `db`'s file to the worker (started on first use) until `db` is closed: its own
 * automatic checkpoint moves to FALLBACK_PAGES. In-memory databases have no WAL and are left as they are; a
 * connection of a worker thread leaves its file to the main thread's checkpointer.
 */
export function checkpointInBackground(db: Database.Database): void {
  if (db.memory) return;
  // A worker thread's connections (the API thread's, API_THREAD=true) are to files the main thread has open as well,
  // whose checkpointer covers them: no second checkpointer, and no checkpoint inside this thread's COMMITs either.
  if (isMainThread && !handToWorker(db)) return;
  db.pragma(`wal_autocheckpoint = ${FALLBACK_PAGES}`);
}

/** Starts the worker WORKER_START_DELAY_MS from now unless it runs or waits; false when it cannot run at all. */
function scheduleWorker(): boolean {
  if (worker || starting) return true;
  let driver: string;
  try {
    driver = driverPath();
  } catch {
    // No driver to hand the worker (a bundle without node_modules beside it): SQLite checkpoints in the COMMIT.
    return false;
  }
  starting = setTimeout(() => {
    starting = null;
    try {
      worker = startWorker(driver);
    } catch {
      // No thread: the connections' own fallback checkpoints take over.
      return;
    }
    for (const file of connections.keys()) post({ type: 'watch', file });
  }, WORKER_START_DELAY_MS);
  starting.unref();
  return true;
}

/** Counts `db` in for its file until it closes; false when there is no worker to hand it to. */
function handToWorker(db: Database.Database): boolean {
  if (!scheduleWorker()) return false;
  const file = db.name;
  const count = connections.get(file) ?? 0;
  connections.set(file, count + 1);
  if (count === 0) post({ type: 'watch', file });
  const close = db.close.bind(db);
  let released = false;
  // better-sqlite3 has no close event: the release rides on the connection's own close, wherever that is called.
  db.close = () => {
    if (!released) {
      released = true;
      release(file);
    }
    return close();
  };
  return true;
}

function release(file: string): void {
  const left = (connections.get(file) ?? 1) - 1;
  if (left > 0) {
    connections.set(file, left);
    return;
  }
  connections.delete(file);
  post({ type: 'release', file });
  if (connections.size === 0) {
    // Handled after the release above: the worker closes what it has left and its thread ends.
    post({ type: 'stop' });
    worker = null;
    if (starting) clearTimeout(starting);
    starting = null;
  }
}
