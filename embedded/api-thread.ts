/**
 * The API thread's entry (API_THREAD=true): the functions behind the local HTTP gateway, on connections of their own
 * to the embedded stores and queue, reaching the host's thread over a MessagePort for owner-directed operations, and
 * hearing from it of settled sends. Composition root of that thread; started and stopped by api-thread-host.ts.
 */
import { type MessagePort, parentPort, workerData } from 'node:worker_threads';
import { pino } from 'pino';
import { createFunctionDeps, installDeps } from '#functions/deps.js';
import { openBackends } from '#host/backends.js';
import { ApiThreadClient } from '#shared/adapters/api-thread/api-thread-client.js';
import { MetricJson } from '#shared/adapters/api-thread/api-thread-protocol.js';
import { ThreadHostGateway } from '#shared/adapters/api-thread/thread-host-gateway.js';
import { shareWakeupsAcrossThreads } from '#shared/adapters/embedded-queue/queue-wakeups.js';
import { InProcessMessageOutcomes } from '#shared/adapters/memory/in-process-message-outcomes.js';
import { AuditRecorder } from '#shared/audit/audit-recorder.js';
import { createMetrics } from '#shared/observability/metrics.js';
import { mapStackTracesOnDemand } from '#shared/observability/process-setup.js';
import { systemClock } from '#shared/ports/clock.port.js';
import type { Logger } from '#shared/ports/logger.port.js';
import { CommandQueue } from '#shared/queue/command-queue.js';
import { type ApiThreadData, type FromApiThread, ToApiThread } from './api-thread-control.js';
import { startLocalGateway } from './local-gateway.js';

// A thread has stack traces of its own to map (the main thread's entry maps those of its own).
mapStackTracesOnDemand();

const parent = parentPort as MessagePort;
const tell = (message: FromApiThread) => parent.postMessage(message);

/** What the host thread may ask of a started API thread. */
interface StartedThread {
  drain(): void;
  close(): Promise<void>;
}

async function start({ env, version, hostPort }: ApiThreadData): Promise<StartedThread> {
  const stopSharing = shareWakeupsAcrossThreads();
  const logger: Logger = pino({ level: env.LOG_LEVEL, base: { service: 'waygate', thread: 'api' } });
  const clock = systemClock;
  const backends = await openBackends(env);
  // Send requests wait here; the host thread tells of every message it settles.
  const outcomes = new InProcessMessageOutcomes();
  const client = new ApiThreadClient(hostPort, (sessionId, messageId) =>
    outcomes.notify(sessionId, messageId),
  );
  const host = new ThreadHostGateway(client);
  const metrics = createMetrics({
    peers: async () => {
      const series = MetricJson.array().safeParse(await client.request({ kind: 'metrics' }));
      if (series.success) return [series.data];
      // A scrape still answers with this thread's series: missing series beat a failed scrape.
      logger.warn({ issues: series.error.issues }, "the host thread's metrics were unreadable");
      return [];
    },
  });
  const audit = new AuditRecorder(backends.main.audit, clock, logger, metrics);
  const deps = createFunctionDeps({
    clock,
    logger,
    main: backends.main,
    data: backends.data,
    media: backends.media,
    commands: new CommandQueue(backends.commandQueue),
    host,
    outcomes,
    audit,
    env,
    version,
    metrics,
    authState: backends.authState,
  });
  installDeps(deps);
  const closeStores = async () => {
    await deps.usage.flush();
    await audit.close();
    await backends.close();
    client.close();
    hostPort.close();
    stopSharing();
  };
  try {
    const api = await startLocalGateway({
      port: env.PORT,
      host: env.BIND_HOST,
      bodyLimit: env.BODY_SIZE_LIMIT,
      mcp: env.MCP_ENABLED,
      logger,
    });
    tell({ kind: 'listening', url: api.url });
    return {
      drain: () => deps.drain.begin(),
      close: async () => {
        await api.close();
        await closeStores();
      },
    };
  } catch (error) {
    await closeStores();
    throw error;
  }
}

// The host thread's configuration as loadEnv validated it there (a structured clone), and its end of the port.
start(workerData as ApiThreadData).then(
  (started) => {
    parent.on('message', (raw: unknown) => {
      const message = ToApiThread.safeParse(raw);
      if (!message.success) return;
      if (message.data.kind === 'drain') return started.drain();
      started.close().then(
        () => tell({ kind: 'closed' }),
        (error: unknown) => tell({ kind: 'failed', message: String(error) }),
      );
    });
  },
  (error: unknown) =>
    tell({ kind: 'failed', message: error instanceof Error ? error.message : String(error) }),
);
