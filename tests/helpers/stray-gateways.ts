/**
 * The test gateways of one test file that are started or starting and not yet closed. A setup hook that timed out
 * leaves its gateway starting with nobody to close it; its server, worker thread or serverless offline child would
 * then keep jest's process alive after the run (CI once waited out its whole time limit on one).
 * close-stray-gateways.ts, a setup file, closes them after each file. Kept apart from test-gateway.ts so that setup
 * file loads nothing of the gateway.
 */

/** What is tracked of a test gateway: its restart gives a new one, its close ends it. */
export interface Closeable<T> {
  restart(overrides?: Record<string, string>): Promise<T>;
  close(): Promise<void>;
}

const live = new Set<Closeable<unknown>>();
const starting = new Set<Promise<unknown>>();

/** Tracks the gateway `start` answers until it is closed or restarted (its restart's gateway is tracked in turn). */
export function watchGateway<T extends Closeable<T>>(start: Promise<T>): Promise<T> {
  const tracked = start.then(track);
  starting.add(tracked);
  const done = () => starting.delete(tracked);
  tracked.then(done, done);
  return tracked;
}

function track<T extends Closeable<T>>(gw: T): T {
  let closing: Promise<void> | null = null;
  const own: T = {
    ...gw,
    restart(overrides?: Record<string, string>) {
      live.delete(own);
      return watchGateway(gw.restart(overrides));
    },
    close() {
      live.delete(own);
      closing ??= gw.close();
      return closing;
    },
  };
  live.add(own);
  return own;
}

/** Closes every gateway of this test file still open, once those still starting have started (or failed to). */
export async function closeStrayGateways(): Promise<void> {
  await Promise.allSettled([...starting]);
  await Promise.allSettled([...live].map((gw) => gw.close()));
}
