/**
 * The functions' dependencies in aws mode, built from the environment once per cold start: DynamoDB stores, the SQS
 * command queue, and the host gateway that routes owner-directed calls to the owning host's RPC API. Part of the
 * functions' composition root (deps.ts); nothing here opens SQLite or loads an engine.
 */
import { pino } from 'pino';
import { openAwsAdapters, statsCountFailureLogger } from '#shared/adapters/aws/open-aws-adapters.js';
import { DynamoDbAuthStateStore } from '#shared/adapters/dynamodb/dynamodb-auth-state-store.js';
import { HostRpcMessageOutcomes } from '#shared/adapters/host-rpc/host-rpc-message-outcomes.js';
import { HttpHostRpcClient } from '#shared/adapters/host-rpc/http-host-rpc-client.js';
import { LeaseRoutedHostGateway } from '#shared/adapters/host-rpc/lease-routed-host-gateway.js';
import { openMediaStorage } from '#shared/adapters/open-media-storage.js';
import { AuditRecorder } from '#shared/audit/audit-recorder.js';
import type { Env } from '#shared/config/env.js';
import { createMetrics } from '#shared/observability/metrics.js';
import { systemClock } from '#shared/ports/clock.port.js';
import type { Logger } from '#shared/ports/logger.port.js';
import { CommandQueue } from '#shared/queue/command-queue.js';
import { createFunctionDeps, type Deps } from './function-deps.js';

/** The functions' dependencies in aws mode; a Lambda keeps them for its lifetime and never closes them. */
export function createAwsFunctionDeps(env: Env): Deps {
  return openAwsFunctionDeps(env).deps;
}

/**
 * The same, with what closes them: for a process that outlives its functions (the api-aws tests run the handlers
 * in-process on the emulators, a gateway per test file).
 */
export function openAwsFunctionDeps(env: Env): { deps: Deps; close(): Promise<void> } {
  const logger: Logger = pino({ level: env.LOG_LEVEL, base: { service: 'waygate' } });
  const clock = systemClock;
  const adapters = openAwsAdapters(env, { onStatsCountFailure: statsCountFailureLogger(logger) });
  const token = env.HOST_RPC_TOKEN;
  if (!token) throw new Error('HOST_RPC_TOKEN is required in aws mode');
  // Credentials of a session no host runs are wiped here on delete; with the file adapter (a shared file system
  // the functions do not mount) the owning host wipes them, so an unowned session's files stay until reused.
  const authState =
    env.AUTH_STATE_STORE === 'dynamodb'
      ? new DynamoDbAuthStateStore({ client: adapters.dynamoDb, tablePrefix: env.TABLE_PREFIX })
      : null;
  const rpc = new HttpHostRpcClient({ token, timeoutMs: env.HOST_RPC_TIMEOUT_MS });
  const host = new LeaseRoutedHostGateway({
    sessions: adapters.data.sessions,
    clock,
    rpc,
    wipeCredentials: async (sessionId) => {
      if (authState) await authState.wipe(sessionId);
      else logger.warn({ sessionId }, 'credentials of an unowned session left on the shared file system');
    },
  });
  const metrics = createMetrics({ processSeries: true });
  const audit = new AuditRecorder(adapters.main.audit, clock, logger, metrics);
  const deps = createFunctionDeps({
    clock,
    logger,
    main: adapters.main,
    data: adapters.data,
    media: openMediaStorage(env),
    commands: new CommandQueue(adapters.commandQueue),
    host,
    outcomes: new HostRpcMessageOutcomes({ sessions: adapters.data.sessions, clock, rpc, logger }),
    audit,
    env,
    version: env.SERVICE_VERSION ?? '0.0.0',
    metrics,
    authState: authState ? () => authState : null,
  });
  // A Lambda may be frozen right after answering: what the request left to the background (api_key_used, …) and
  // the retry buffer are written before the answer. Entries the request awaited are already stored: not rewritten.
  return {
    deps: { ...deps, flushAfterRequest: () => audit.flush() },
    async close() {
      await deps.usage.flush();
      metrics.close();
      await audit.close();
      await deps.media.close();
      await adapters.close();
    },
  };
}
