/**
 * Wake-ups of the embedded queue's long polls: a send, a visibility change or a close in this thread wakes its
 * waiting receives at once, and in the threads that share their wake-ups (the API thread and the host's, with
 * API_THREAD) as soon as their event loop turns; other processes sharing the file are seen by polling.
 */
import { EventEmitter } from 'node:events';
import path from 'node:path';
import type { SqliteDb } from '#shared/adapters/sqlite/sqlite-database.js';
import { type ThreadBroadcast, threadBroadcast } from '#shared/adapters/thread-broadcast.js';

// Wakes long polls of this thread at once after a send; other processes are seen by polling.
const wakeups = new EventEmitter().setMaxListeners(0);

let peers: ThreadBroadcast | null = null;

/**
 * From now on this thread's wake-ups also reach the other threads of the process that called this, and theirs reach
 * it (a send in the API thread wakes the host's receive). Answers a function that stops sharing.
 */
export function shareWakeupsAcrossThreads(): () => void {
  if (!peers) {
    peers = threadBroadcast('embedded-queue-wakeups');
    peers.subscribe((key) => wakeups.emit(key));
  }
  return () => {
    peers?.close();
    peers = null;
  };
}

/** Wakes the long polls waiting on `key`, in this thread and in those it shares wake-ups with. */
export function notify(key: string): void {
  wakeups.emit(key);
  peers?.publish(key);
}

/** Resolves after `ms`, on a wake-up for `key`, or on abort, whichever comes first. */
export function waitForWake(key: string, ms: number, signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve) => {
    if (signal?.aborted) return resolve();
    const done = () => {
      clearTimeout(timer);
      wakeups.off(key, done);
      signal?.removeEventListener('abort', done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    wakeups.on(key, done);
    signal?.addEventListener('abort', done, { once: true });
  });
}

/** The wake-up channel of one queue in one database file. */
export function wakeKey(db: SqliteDb, queue: string): string {
  const file = db.memory ? db.name : path.resolve(db.name);
  return `${file}\u0000${queue}`;
}
