/**
 * Composition root of the embedded mode: env → SQLite stores and queues → engines → host → command consumer →
 * the functions' dependencies → local HTTP gateway. `startGateway` is also what the API tests start.
 */
import path from 'node:path';
import { pino } from 'pino';
import { createFunctionDeps, installDeps } from '../functions/deps.js';
import { CachingSessionStore } from '../shared/adapters/caching/caching-session-store.js';
import { openEmbeddedQueues } from '../shared/adapters/embedded-queue/open-embedded-queues.js';
import { openSqliteDataStore, openSqliteMainStore } from '../shared/adapters/sqlite/sqlite-stores.js';
import { AuditRecorder } from '../shared/audit/audit-recorder.js';
import type { Env } from '../shared/config/env.js';
import { createMetrics } from '../shared/observability/metrics.js';
import { systemClock } from '../shared/ports/clock.port.js';
import type { Logger } from '../shared/ports/logger.port.js';
import { CommandQueue } from '../shared/queue/command-queue.js';
import { type BootstrapResult, ensureBootstrapAdminKey } from './bootstrap-admin-key.js';
import { CommandConsumer } from './commands/command-consumer.js';
import { selectEngine } from './engines/select-engine.js';
import type { TestNetwork } from './engines/test/test-network.js';
import { EventBus } from './events/event-bus.js';
import { Host } from './host.js';
import { startLocalGateway } from './local-gateway.js';
import { scheduleAuditRetention } from './maintenance.js';
import { MessageSink } from './messages/message-sink.js';
import { packageVersion } from './package-version.js';

/** Bounds staleness should another process write the same SQLite file (none does in normal operation). */
const SESSION_CACHE_TTL_MS = 5_000;

export interface GatewayOptions {
  env: Env;
  /** The test engine's network (ENGINE=test); one is created when absent. */
  testNetwork?: TestNetwork;
  logger?: Logger;
}

export interface RunningGateway {
  url: string;
  version: string;
  host: Host;
  events: EventBus;
  testNetwork: TestNetwork | null;
  bootstrap: BootstrapResult;
  close(): Promise<void>;
}

export async function startGateway(options: GatewayOptions): Promise<RunningGateway> {
  const { env } = options;
  const logger: Logger = options.logger ?? pino({ level: env.LOG_LEVEL, base: { service: 'waygate' } });
  const clock = systemClock;
  const version = packageVersion();

  const main = openSqliteMainStore(env.MAIN_DATABASE_NAME);
  const sqliteData = openSqliteDataStore(env.DATABASE_NAME);
  // This process is the data store's only writer, so session rows can be served from memory (write-through).
  const data = {
    ...sqliteData,
    sessions: new CachingSessionStore(sqliteData.sessions, SESSION_CACHE_TTL_MS),
  };
  const queueFile = path.join(env.DATA_DIR, 'queue.sqlite');
  const queues = openEmbeddedQueues(queueFile, {
    commands: {
      fifo: true,
      visibilityTimeoutSeconds: env.COMMAND_VISIBILITY_TIMEOUT_S,
      maxReceiveCount: env.COMMAND_MAX_RECEIVES,
      deadLetterQueue: 'commandsDead',
    },
    commandsDead: { fifo: true, visibilityTimeoutSeconds: env.COMMAND_VISIBILITY_TIMEOUT_S },
  });
  const commands = new CommandQueue(queues.queues.commands);
  const metrics = createMetrics();
  const audit = new AuditRecorder(main.audit, clock, logger);
  const events = new EventBus(logger);
  const engine = selectEngine(env, options.testNetwork);

  const sink = new MessageSink({ messages: data.messages, events, clock, logger });
  const host = new Host({
    sink,
    messages: data.messages,
    sessions: data.sessions,
    fences: data.fences,
    events,
    clock,
    logger,
    engines: engine.factory,
    audit,
    teardownTimeoutMs: env.ENGINE_TEARDOWN_TIMEOUT_MS,
    commands,
    metrics,
  });
  const deps = createFunctionDeps({
    clock,
    logger,
    main,
    data,
    commands,
    host,
    audit,
    env,
    version,
    metrics,
  });
  installDeps(deps);

  const bootstrap = await ensureBootstrapAdminKey(main.apiKeys, env, clock);
  const stopRetention = scheduleAuditRetention(main.audit, clock, env.AUDIT_RETENTION_DAYS, logger);
  const consumer = new CommandConsumer(
    commands,
    {
      'session.start': (command) => host.handleStart(command),
      'message.send': (command) => host.handleSend(command),
    },
    logger,
    metrics,
    {
      waitTimeSeconds: 20,
      visibilityTimeoutSeconds: env.COMMAND_VISIBILITY_TIMEOUT_S,
      maxMessages: 10,
    },
  );
  // Resume first: commands queued before a restart (sends) must find their sessions' runners.
  const resumed = await host.resumeRunningSessions();
  consumer.start();
  const { server, url } = await startLocalGateway({
    port: env.PORT,
    host: env.BIND_HOST,
    bodyLimit: env.BODY_SIZE_LIMIT,
    logger,
  });
  logger.info({ url, version, engine: env.ENGINE, resumed }, 'gateway listening');

  let closing: Promise<void> | null = null;
  const close = () =>
    (closing ??= (async () => {
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeIdleConnections();
      });
      stopRetention();
      await consumer.stop();
      await host.shutdown();
      await engine.close();
      await deps.usage.flush();
      await audit.flush();
      await queues.close();
      await data.close();
      await main.close();
    })());

  return { url, version, host, events, testNetwork: engine.network, bootstrap, close };
}
