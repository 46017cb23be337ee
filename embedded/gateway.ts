/**
 * Composition root of the single-process mode (`npm start`): the host process (host/host-process.ts) and, in the
 * embedded deployment mode, the functions on the same stores behind the local HTTP gateway, calling the in-process
 * host directly (or, with MULTI_NODE, through the lease-routed gateway, as Lambda does). With DEPLOYMENT_MODE=aws
 * it is the host alone. `startGateway` is also what the API tests and benchmarks start.
 */
import { createFunctionDeps, type Deps, installDeps } from '#functions/deps.js';
import type { BootstrapResult } from '#host/bootstrap-admin-key.js';
import type { TestNetwork } from '#host/engines/test/test-network.js';
import type { EventBus } from '#host/events/event-bus.js';
import type { Host } from '#host/host.js';
import { startHost } from '#host/host-process.js';
import { HostRpcMessageOutcomes } from '#shared/adapters/host-rpc/host-rpc-message-outcomes.js';
import { LeaseRoutedHostGateway } from '#shared/adapters/host-rpc/lease-routed-host-gateway.js';
import type { Env } from '#shared/config/env.js';
import type { Logger } from '#shared/ports/logger.port.js';
import { startApiThread } from './api-thread-host.js';
import { type RunningLocalGateway, startLocalGateway } from './local-gateway.js';

export interface GatewayOptions {
  env: Env;
  /** The test engine's network (ENGINE=test or test-core); one is created when absent. */
  testNetwork?: TestNetwork;
  logger?: Logger;
  /** API_THREAD: the thread's entry module, when not where the build puts it (benchmarks bundle the gateway). */
  apiThreadEntry?: URL;
}

export interface RunningGateway {
  /** The API (embedded), or the RPC server when this process serves no API (aws). */
  url: string;
  /** The RPC server's URL in multi-node mode. */
  rpcUrl: string | null;
  version: string;
  /** API_THREAD: the threadId of the API's worker thread (null when the API runs in this thread, or none does). */
  apiThreadId: number | null;
  host: Host;
  events: EventBus;
  testNetwork: TestNetwork | null;
  bootstrap: BootstrapResult;
  /**
   * Begins the shutdown's drain without closing: readiness answers 503 (`shutdown: draining`) and the API refuses
   * new writes (503 SHUTTING_DOWN). `close` begins it too.
   */
  drain(): void;
  close(): Promise<void>;
}

export async function startGateway(options: GatewayOptions): Promise<RunningGateway> {
  const running = await startHost(options);
  const { env, logger, clock, backends } = running;
  let deps: Deps | null = null;
  let api: RunningLocalGateway | null = null;
  let apiThreadId: number | null = null;
  /** Turns readiness to 503 and refuses new writes, wherever the API runs. */
  let drain: () => void = () => undefined;
  let close: () => Promise<void> = async () => undefined;
  if (env.DEPLOYMENT_MODE === 'embedded' && env.API_THREAD) {
    // The API in a thread of its own, on its own connections to the stores; this thread keeps the host.
    const thread = await startApiThread({
      env,
      version: running.version,
      host: running.host,
      outcomes: running.outcomes,
      metrics: running.metrics.registry,
      logger,
      ...(options.apiThreadEntry ? { entry: options.apiThreadEntry } : {}),
      onUnexpectedExit: () => {
        // No API any more: the process stops, so whatever supervises it starts a whole gateway again.
        process.exitCode = 1;
        void close();
      },
    }).catch(async (error: unknown) => {
      await running.close();
      throw error;
    });
    api = thread;
    apiThreadId = thread.threadId;
    drain = () => thread.drain();
  } else if (env.DEPLOYMENT_MODE === 'embedded') {
    // With several nodes the session's engine may run elsewhere: owner-directed calls and send outcomes go to its
    // owner over the host RPC, as from Lambda.
    const cluster = running.cluster;
    const hostGateway = cluster
      ? new LeaseRoutedHostGateway({
          sessions: backends.data.sessions,
          clock,
          rpc: cluster.rpc,
          wipeCredentials: (id) => running.engine.factory.wipeCredentials(id),
        })
      : running.host;
    const outcomes = cluster
      ? new HostRpcMessageOutcomes({ sessions: backends.data.sessions, clock, rpc: cluster.rpc, logger })
      : running.outcomes;
    deps = createFunctionDeps({
      clock,
      logger,
      main: backends.main,
      data: backends.data,
      media: backends.media,
      commands: running.commands,
      host: hostGateway,
      outcomes,
      audit: running.audit,
      env,
      version: running.version,
      metrics: running.metrics,
      // The host's own store (opened on first use), so the export reads what the engines wrote.
      authState: backends.authState,
    });
    installDeps(deps);
    const signal = deps.drain;
    drain = () => signal.begin();
    api = await startLocalGateway({
      port: env.PORT,
      host: env.BIND_HOST,
      bodyLimit: env.BODY_SIZE_LIMIT,
      mcp: env.MCP_ENABLED,
      logger,
    });
  }
  const url = api?.url ?? running.rpcUrl ?? '';
  logger.info({ url, version: running.version, mode: env.DEPLOYMENT_MODE }, 'gateway up');

  let closing: Promise<void> | null = null;
  // Shutdown drains first: readiness answers 503 and writes are refused while the host finishes what it took (the
  // commands in hand, the engines' last reports, the webhook drain); reads are answered until the API closes, just
  // before the stores do.
  close = () =>
    (closing ??= (async () => {
      drain();
      await running.close(async () => {
        await api?.close();
        await deps?.usage.flush();
      });
    })());

  return {
    url,
    rpcUrl: running.rpcUrl,
    version: running.version,
    apiThreadId,
    host: running.host,
    events: running.events,
    testNetwork: running.engine.network,
    bootstrap: running.bootstrap,
    drain: () => drain(),
    close,
  };
}
