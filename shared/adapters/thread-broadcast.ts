/**
 * String notices shared by the threads of one process (API_THREAD: the API thread and the host's): what one thread
 * publishes on a named channel reaches every other thread that opened the same name, as soon as its event loop
 * turns. The embedded queue's wake-ups and the webhook cache's invalidations travel this way.
 */
import { BroadcastChannel } from 'node:worker_threads';

export interface ThreadBroadcast {
  /** Tells the other threads `notice`. */
  publish(notice: string): void;
  /** Calls `hear` with each notice another thread publishes. */
  subscribe(hear: (notice: string) => void): void;
  close(): void;
}

/** The channel `name` (namespaced, so nothing else in the process shares it). */
export function threadBroadcast(name: string): ThreadBroadcast {
  const channel = new BroadcastChannel(`waygate:${name}`);
  // Never what keeps a process alive: the queues and servers decide that.
  channel.unref();
  return {
    publish: (notice) => channel.postMessage(notice),
    subscribe(hear) {
      channel.onmessage = (event) => {
        const notice = (event as MessageEvent).data;
        if (typeof notice === 'string') hear(notice);
      };
    },
    close: () => channel.close(),
  };
}
