/**
 * Composition root of the host process, in either deployment mode: env → stores and queue (backends.ts) → engines →
 * host (with leases when several nodes share the stores) → command consumer → entry points. Embedded: the local HTTP
 * gateway serves the functions in-process. Multi-node (aws, or MULTI_NODE=true): the RPC server on HOST_PORT answers
 * owner-directed calls. `startGateway` is also what the API tests and benchmarks start.
 */
import { pino } from 'pino';
import { createFunctionDeps, type Deps, installDeps } from '#functions/deps.js';
import { HttpHostRpcClient } from '#shared/adapters/host-rpc/http-host-rpc-client.js';
import { AuditRecorder } from '#shared/audit/audit-recorder.js';
import type { Env } from '#shared/config/env.js';
import { createMetrics } from '#shared/observability/metrics.js';
import { systemClock } from '#shared/ports/clock.port.js';
import type { Logger } from '#shared/ports/logger.port.js';
import { CommandQueue } from '#shared/queue/command-queue.js';
import { LeaseRoutedHostGateway } from '#shared/use-cases/sessions/lease-routed-host-gateway.js';
import { openBackends } from './backends.js';
import { type BootstrapResult, ensureBootstrapAdminKey } from './bootstrap-admin-key.js';
import type { Cluster } from './cluster-placement.js';
import { CommandConsumer } from './commands/command-consumer.js';
import { selectEngine } from './engines/select-engine.js';
import type { TestNetwork } from './engines/test/test-network.js';
import { EventBus } from './events/event-bus.js';
import { Host } from './host.js';
import { startLocalGateway } from './local-gateway.js';
import { scheduleAuditRetention } from './maintenance.js';
import { MessageSink } from './messages/message-sink.js';
import { packageVersion } from './package-version.js';
import { type RunningRpcServer, startRpcServer } from './rpc/rpc-server.js';

export interface GatewayOptions {
  env: Env;
  /** The test engine's network (ENGINE=test); one is created when absent. */
  testNetwork?: TestNetwork;
  logger?: Logger;
}

export interface RunningGateway {
  /** The API (embedded), or the RPC server when this process serves no API (aws). */
  url: string;
  /** The RPC server's URL in multi-node mode. */
  rpcUrl: string | null;
  version: string;
  host: Host;
  events: EventBus;
  testNetwork: TestNetwork | null;
  bootstrap: BootstrapResult;
  close(): Promise<void>;
}

function clusterOf(env: Env): Cluster | undefined {
  if (!env.MULTI_NODE) return undefined;
  if (!env.HOST_RPC_TOKEN) throw new Error('HOST_RPC_TOKEN is required with MULTI_NODE');
  return {
    nodeId: env.NODE_ID,
    nodeUrl: env.NODE_URL,
    rpc: new HttpHostRpcClient({ token: env.HOST_RPC_TOKEN, timeoutMs: env.HOST_RPC_TIMEOUT_MS }),
    leaseTtlMs: env.LEASE_TTL_MS,
    leaseRenewMs: env.LEASE_RENEW_MS,
    sweepMs: env.LEASE_SWEEP_MS,
  };
}

export async function startGateway(options: GatewayOptions): Promise<RunningGateway> {
  const { env } = options;
  const logger: Logger = options.logger ?? pino({ level: env.LOG_LEVEL, base: { service: 'waygate' } });
  const clock = systemClock;
  const version = packageVersion();
  const cluster = clusterOf(env);

  const backends = openBackends(env);
  const { main, data } = backends;
  const commands = new CommandQueue(backends.commandQueue);
  const metrics = createMetrics();
  const audit = new AuditRecorder(main.audit, clock, logger, metrics);
  const events = new EventBus(logger);
  const engine = selectEngine(env, { authState: backends.authState, testNetwork: options.testNetwork });
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
    ...(cluster ? { cluster } : {}),
  });

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
    { waitTimeSeconds: 20, visibilityTimeoutSeconds: env.COMMAND_VISIBILITY_TIMEOUT_S, maxMessages: 10 },
  );
  // The RPC server comes first: other nodes may route to this one as soon as it holds a lease.
  const rpc: RunningRpcServer | null =
    cluster && env.HOST_RPC_TOKEN
      ? await startRpcServer({
          host,
          token: env.HOST_RPC_TOKEN,
          port: env.HOST_PORT,
          bindHost: env.BIND_HOST,
          nodeId: cluster.nodeId,
          logger,
        })
      : null;
  // Resume first: commands queued before a restart (sends) must find their sessions' runners.
  const resumed = await host.resumeRunningSessions();
  consumer.start();

  let deps: Deps | null = null;
  let api: Awaited<ReturnType<typeof startLocalGateway>> | null = null;
  if (env.DEPLOYMENT_MODE === 'embedded') {
    const hostGateway = cluster
      ? new LeaseRoutedHostGateway({
          sessions: data.sessions,
          clock,
          rpc: cluster.rpc,
          wipeCredentials: (id) => engine.factory.wipeCredentials(id),
        })
      : host;
    deps = createFunctionDeps({
      clock,
      logger,
      main,
      data,
      commands,
      host: hostGateway,
      audit,
      env,
      version,
      metrics,
    });
    installDeps(deps);
    api = await startLocalGateway({
      port: env.PORT,
      host: env.BIND_HOST,
      bodyLimit: env.BODY_SIZE_LIMIT,
      logger,
    });
  }
  const url = api?.url ?? rpc?.url ?? '';
  logger.info(
    { url, rpc: rpc?.url, version, mode: env.DEPLOYMENT_MODE, engine: env.ENGINE, resumed },
    'host up',
  );

  let closing: Promise<void> | null = null;
  const close = () =>
    (closing ??= (async () => {
      if (api) {
        const server = api.server;
        await new Promise<void>((resolve) => {
          server.close(() => resolve());
          server.closeIdleConnections();
        });
      }
      stopRetention();
      await consumer.stop();
      await host.shutdown();
      await rpc?.close();
      await engine.close();
      await deps?.usage.flush();
      await audit.close();
      await backends.close();
    })());

  return {
    url,
    rpcUrl: rpc?.url ?? null,
    version,
    host,
    events,
    testNetwork: engine.network,
    bootstrap,
    close,
  };
}
