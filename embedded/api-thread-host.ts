/**
 * Starts and stops the API thread (API_THREAD=true) from the gateway's main thread, which runs the host: serves the
 * thread's host requests on a MessagePort, shares the queue's wake-ups with it, and waits until it listens.
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { MessageChannel, Worker } from 'node:worker_threads';
import type { Registry } from 'prom-client';
import { serveApiThread } from '#shared/adapters/api-thread/serve-api-thread.js';
import { shareWakeupsAcrossThreads } from '#shared/adapters/embedded-queue/queue-wakeups.js';
import type { InProcessMessageOutcomes } from '#shared/adapters/memory/in-process-message-outcomes.js';
import type { Env } from '#shared/config/env.js';
import type { HostGateway } from '#shared/ports/host-gateway.port.js';
import type { Logger } from '#shared/ports/logger.port.js';
import { type ApiThreadData, FromApiThread, type ToApiThread } from './api-thread-control.js';
import type { RunningLocalGateway } from './local-gateway.js';

export interface ApiThreadOptions {
  env: Env;
  version: string;
  host: HostGateway;
  /** The host's send outcomes, pushed to the thread's waiting requests. */
  outcomes: InProcessMessageOutcomes;
  metrics: Registry;
  logger: Logger;
  /** The thread's entry module; by default dist/embedded/api-thread.js, or the TypeScript source when run from it. */
  entry?: URL;
  /** Called when the thread ends on its own (a crash): the gateway has no API any more. */
  onUnexpectedExit(code: number): void;
}

/** How long a closing API thread may take to finish its requests and writes before it is stopped. */
const CLOSE_TIMEOUT_MS = 15_000;

/**
 * The thread's entry: beside this module when it is the source (tests, tsx), else in dist/embedded/ of the package
 * this bundle belongs to (the bundles put this module's code in an entry or a shared chunk).
 */
function defaultEntry(): URL {
  const here = fileURLToPath(import.meta.url);
  if (here.endsWith('.ts')) return new URL('./api-thread.ts', import.meta.url);
  let dir = path.dirname(here);
  for (let i = 0; i < 4 && !fs.existsSync(path.join(dir, 'embedded', 'api-thread.js')); i++)
    dir = path.dirname(dir);
  return pathToFileURL(path.join(dir, 'embedded', 'api-thread.js'));
}

/** The API thread's name, as the OS shows it (`top -H`, /proc/<pid>/task/<tid>/comm). */
export const API_THREAD_NAME = 'waygate-api';

/** A TypeScript entry runs through tsx, which the thread registers before loading it (source runs only). */
function workerFor(entry: URL, data: ApiThreadData): Worker {
  const options = { workerData: data, transferList: [data.hostPort], name: API_THREAD_NAME };
  if (!entry.pathname.endsWith('.ts')) return new Worker(entry, options);
  const loader = `import('tsx/esm/api').then(({ register }) => { register(); return import(${JSON.stringify(entry.href)}); })`;
  return new Worker(loader, { ...options, eval: true });
}

export interface RunningApiThread extends RunningLocalGateway {
  /** The worker's threadId (node:worker_threads). */
  threadId: number;
  /** Tells the thread the process drains: its readiness answers 503 and it refuses new writes. */
  drain(): void;
}

/** Starts the thread; resolves once its HTTP server listens. */
export async function startApiThread(options: ApiThreadOptions): Promise<RunningApiThread> {
  const stopSharing = shareWakeupsAcrossThreads();
  const { port1, port2 } = new MessageChannel();
  const serving = serveApiThread(port1, {
    host: options.host,
    outcomes: options.outcomes,
    metrics: options.metrics,
    logger: options.logger,
  });
  const worker = workerFor(options.entry ?? defaultEntry(), {
    env: options.env,
    version: options.version,
    hostPort: port2,
  });
  let closing = false;
  const messages: ((message: FromApiThread) => void)[] = [];
  worker.on('message', (raw: unknown) => {
    const parsed = FromApiThread.safeParse(raw);
    if (parsed.success) for (const listener of messages) listener(parsed.data);
  });
  const exited = new Promise<number>((resolve) => worker.once('exit', resolve));
  worker.on('error', (error) => options.logger.error({ err: error }, 'API thread failed'));
  const next = (kinds: FromApiThread['kind'][]) =>
    new Promise<FromApiThread | null>((resolve) => {
      const listener = (message: FromApiThread) => {
        if (!kinds.includes(message.kind)) return;
        messages.splice(messages.indexOf(listener), 1);
        resolve(message);
      };
      messages.push(listener);
      void exited.then(() => resolve(null));
    });
  const started = await next(['listening', 'failed']);
  const cleanUp = () => {
    serving.stop();
    stopSharing();
  };
  if (started?.kind !== 'listening') {
    await worker.terminate();
    cleanUp();
    throw new Error(
      `The API thread did not start: ${started?.kind === 'failed' ? started.message : 'it exited'}`,
    );
  }
  void exited.then((code) => {
    if (!closing) {
      options.logger.error({ code }, 'the API thread ended on its own');
      options.onUnexpectedExit(code);
    }
  });
  return {
    url: started.url,
    threadId: worker.threadId,
    drain: () => worker.postMessage({ kind: 'drain' } satisfies ToApiThread),
    close: async () => {
      closing = true;
      const closed = next(['closed', 'failed']);
      worker.postMessage({ kind: 'close' } satisfies ToApiThread);
      const answer = await Promise.race([
        closed,
        new Promise<null>((r) => setTimeout(() => r(null), CLOSE_TIMEOUT_MS).unref()),
      ]);
      if (!answer) options.logger.warn('the API thread did not close in time; stopped');
      else if (answer.kind === 'failed')
        options.logger.error({ reason: answer.message }, 'API thread close failed');
      await worker.terminate();
      cleanUp();
    },
  };
}
