/**
 * Cache invalidations shared by the threads of one process (API_THREAD: the API thread and the host's each cache a
 * store's rows): a write in one thread drops the entry in the others too, as soon as their event loop turns.
 */
import { BroadcastChannel } from 'node:worker_threads';

export interface CacheInvalidations {
  /** Tells the other threads that `key` changed. */
  publish(key: string): void;
  /** Calls `drop` with each key another thread changed. */
  subscribe(drop: (key: string) => void): void;
  close(): void;
}

/** The invalidations of the cache named `name`, across every thread that opens the same name. */
export function threadCacheInvalidations(name: string): CacheInvalidations {
  const channel = new BroadcastChannel(`waygate:cache:${name}`);
  // Never what keeps a process alive.
  channel.unref();
  return {
    publish: (key) => channel.postMessage(key),
    subscribe(drop) {
      channel.onmessage = (event) => {
        const key = (event as MessageEvent).data;
        if (typeof key === 'string') drop(key);
      };
    },
    close: () => channel.close(),
  };
}
