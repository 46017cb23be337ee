/**
 * Wake-ups of the embedded queue's long polls: a send, a visibility change or a close in this process wakes its
 * waiting receives at once; other processes sharing the file are seen by polling.
 */
import { EventEmitter } from 'node:events';
import path from 'node:path';
import type { SqliteDb } from '#shared/adapters/sqlite/sqlite-database.js';

// Wakes long polls of this process at once after a send; other processes are seen by polling.
const wakeups = new EventEmitter().setMaxListeners(0);

/** Wakes this process's long polls waiting on `key`. */
export function notify(key: string): void {
  wakeups.emit(key);
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
