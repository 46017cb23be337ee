/**
 * The host process, in either deployment mode: env → stores and queue (backends.ts) → engines → host (with leases
 * when several nodes share the stores) → command consumer → RPC server (multi-node). It serves no API: in aws mode
 * the functions run on Lambda; in the embedded mode the single-process root (embedded/gateway.ts) adds the API on
 * top of what this starts.
 */
import { pino } from 'pino';
import { CachingIdentityStore } from '#shared/adapters/caching/caching-identity-store.js';
import { HttpHostRpcClient } from '#shared/adapters/host-rpc/http-host-rpc-client.js';
import { GuardedMediaFetcher } from '#shared/adapters/http/guarded-media-fetcher.js';
import { InProcessMessageOutcomes } from '#shared/adapters/memory/in-process-message-outcomes.js';
import { AuditRecorder } from '#shared/audit/audit-recorder.js';
import type { Env } from '#shared/config/env.js';
import { sendPacingPolicy } from '#shared/domain/send-pacing.js';
import { createMetrics, type Metrics } from '#shared/observability/metrics.js';
import { type Clock, systemClock } from '#shared/ports/clock.port.js';
import type { Logger } from '#shared/ports/logger.port.js';
import { CommandQueue } from '#shared/queue/command-queue.js';
import { liveRetentionJobs } from '#shared/use-cases/maintenance/live-retention.js';
import { sweepExpiredStatuses } from '#shared/use-cases/maintenance/sweep-expired-statuses.js';
import { MEDIA_FETCH_TIMEOUT_MS } from '#shared/use-cases/messages/draft-media.js';
import { SendBreaker } from '#shared/use-cases/messages/send-breaker.js';
import { SendPacer } from '#shared/use-cases/messages/send-pacing.js';
import { lookUpPeople } from '#shared/use-cases/people/look-up-people.js';
import { createAutoreply } from './automation/autoreply.js';
import { type Backends, openBackends } from './backends.js';
import { type BootstrapResult, ensureBootstrapAdminKey } from './bootstrap-admin-key.js';
import { chatByAnyId } from './chats/chat-by-any-id.js';
import { ChatSink } from './chats/chat-sink.js';
import type { Cluster } from './cluster-placement.js';
import { CommandConsumer } from './commands/command-consumer.js';
import { connectStores } from './connect-stores.js';
import { assertInstalledPatches } from './engines/baileys/installed-patches.js';
import { type SelectedEngine, selectEngine } from './engines/select-engine.js';
import type { TestNetwork } from './engines/test/test-network.js';
import { EventBus } from './events/event-bus.js';
import { createHostEvents, DEFAULT_RELAY_OPTIONS } from './events/host-events.js';
import type { DurableConsumer } from './events/outbox-relay.js';
import { startWebhookDelivery, type WebhookDeliveryDeps } from './events/webhook-delivery.js';
import { startQueuedWebhookDelivery } from './events/webhook-queue-consumer.js';
import { Host } from './host.js';
import { scheduleHourly, scheduleRetention } from './maintenance.js';
import { MessageSink } from './messages/message-sink.js';
import { packageVersion } from './package-version.js';
import { type RunningRpcServer, startRpcServer } from './rpc/rpc-server.js';
import { ConnectSlots } from './sessions/connect-slots.js';
import { StatusSink } from './statuses/status-sink.js';

export interface HostProcessOptions {
  env: Env;
  /** The test engine's network (ENGINE=test or test-core); one is created when absent. */
  testNetwork?: TestNetwork;
  logger?: Logger;
}

/** A started host process and what the single-process root shares with the functions. */
export interface RunningHost {
  env: Env;
  logger: Logger;
  clock: Clock;
  version: string;
  metrics: Metrics;
  audit: AuditRecorder;
  events: EventBus;
  host: Host;
  /** Settled sends, as this host's send path tells them (in-process waiters listen here). */
  outcomes: InProcessMessageOutcomes;
  backends: Backends;
  commands: CommandQueue;
  engine: SelectedEngine;
  /** Multi-node mode: this node's place in the cluster. */
  cluster: Cluster | undefined;
  /** The RPC server's URL in multi-node mode. */
  rpcUrl: string | null;
  bootstrap: BootstrapResult;
  /**
   * Stops consuming, ends the engines (the sessions resume at the next start) and closes the stores. `beforeStores`
   * runs once the engines are down and before the stores close (the API's buffered writes).
   */
  close(beforeStores?: () => Promise<void>): Promise<void>;
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

/**
 * Webhook delivery: through the webhook queue with QUEUE_ENABLED=true (embedded: this host also consumes it) and in
 * aws mode (the delivery Lambda consumes it), inline otherwise, and in aws mode without a queue URL (local runs).
 */
function startDelivery(
  env: Env,
  backends: Backends,
  deps: Omit<WebhookDeliveryDeps, 'env'>,
): { consumer: DurableConsumer; close(): Promise<void> } {
  const queue = backends.webhookQueue;
  if ((env.QUEUE_ENABLED || env.DEPLOYMENT_MODE === 'aws') && queue) {
    const queued = startQueuedWebhookDelivery({ ...deps, env, queue });
    return { consumer: queued.enqueueEvent, close: () => queued.close() };
  }
  return startWebhookDelivery({ ...deps, env });
}

/**
 * How long the host trusts a cached pairing: its own engines report every pairing of the sessions it owns through
 * the cache, so this only bounds what another process wrote (a session's previous owner).
 */
const IDENTITY_CACHE_TTL_MS = 5 * 60_000;

/** Starts the host: the sessions that were running resume and the command queue is consumed. */
export async function startHost(options: HostProcessOptions): Promise<RunningHost> {
  const { env } = options;
  // Before anything opens: an engine on an unpatched Baileys or libsignal must not start at all (see the module).
  if (env.ENGINE === 'baileys') assertInstalledPatches();
  const logger: Logger = options.logger ?? pino({ level: env.LOG_LEVEL, base: { service: 'waygate' } });
  const clock = systemClock;
  const cluster = clusterOf(env);

  // Retried as the spec's Limits say, so a database that starts after the gateway is waited for.
  const backends = await connectStores(env, logger, () => openBackends(env, logger));
  const { main, data } = backends;
  const commands = new CommandQueue(backends.commandQueue);
  const metrics = createMetrics({ processSeries: true });
  const audit = new AuditRecorder(main.audit, clock, logger, metrics);
  const events = new EventBus(logger);
  const { recorder, relay } = createHostEvents(
    { outbox: data.outbox, bus: events, clock, logger },
    {
      sweepAfterMs: env.OUTBOX_SWEEP_AFTER_MS,
      sweepIntervalMs: env.OUTBOX_SWEEP_INTERVAL_MS,
      sweepBatch: DEFAULT_RELAY_OPTIONS.sweepBatch,
      // As many as the inline delivery line holds per webhook: a burst waits in the outbox, never beyond the line.
      maxInFlight: env.WEBHOOK_DISPATCH_MAX_QUEUED,
    },
  );
  const engine = selectEngine(env, {
    authState: backends.authState,
    // A chat operation may name the chat by the other id of its person (phone or LID).
    chats: chatByAnyId(data.chats, data.identities),
    testNetwork: options.testNetwork,
  });
  const sink = new MessageSink({
    messages: data.messages,
    // This host's events name people by both ids (shared/domain/person-ids.ts): the same few, read per message.
    identities: new CachingIdentityStore(data.identities, IDENTITY_CACHE_TTL_MS),
    media: backends.media,
    events: recorder,
    chats: new ChatSink({ chats: data.chats, messages: data.messages, media: backends.media, logger }),
    statuses: new StatusSink({
      statuses: data.statuses,
      media: backends.media,
      events: recorder,
      people: (sessionId, ids) => lookUpPeople(data.identities, sessionId, ids),
      clock,
      logger,
    }),
    clock,
    logger,
  });
  const webhooks = startDelivery(env, backends, { data, media: backends.media, audit, clock, logger });
  relay.addConsumer(webhooks.consumer);
  const outcomes = new InProcessMessageOutcomes();
  // Send pacing (off unless SEND_PACING_ENABLED): autoreplies are paced like any send; the host feeds the breaker.
  const pacingPolicy = sendPacingPolicy(env);
  const store = data.sendPacing;
  const pacing = pacingPolicy
    ? new SendPacer({ store, messages: data.messages, audit, clock, metrics }, pacingPolicy)
    : null;
  const breaker = pacingPolicy ? new SendBreaker({ store, audit, clock, logger }, pacingPolicy) : null;
  // Autoreply is a durable consumer: a message.received a crash interrupted is evaluated again after the restart.
  relay.addConsumer(createAutoreply({ data, commands, outcomes, clock, logger, pacing }));
  const host = new Host({
    sink,
    media: backends.media,
    outcomes,
    messages: data.messages,
    sessions: data.sessions,
    data,
    fences: data.fences,
    events: recorder,
    clock,
    logger,
    engines: engine.factory,
    audit,
    teardownTimeoutMs: env.ENGINE_TEARDOWN_TIMEOUT_MS,
    commands,
    metrics,
    maxSessions: env.MAX_CONCURRENT_SESSIONS,
    // A slot is held until the engine reports how its connection went; one that never does frees it after this.
    connectSlots: new ConnectSlots(env.SESSION_CONNECT_CONCURRENCY, env.BAILEYS_CONNECT_TIMEOUT_MS + 10_000),
    breaker,
    batchSends: {
      pacing,
      files: {
        media: backends.media,
        fetcher: new GuardedMediaFetcher({ allowedHosts: env.SSRF_ALLOWED_HOSTS }),
        fetchTimeoutMs: MEDIA_FETCH_TIMEOUT_MS,
      },
    },
    ...(cluster ? { cluster } : {}),
  });

  const bootstrap = await ensureBootstrapAdminKey(main.apiKeys, env, clock);
  const stopRetention = scheduleRetention(
    liveRetentionJobs({ audit: main.audit, deliveryFailures: data.deliveryFailures }, clock, { env, data }),
    logger,
  );
  const stopStatusSweep = scheduleHourly(
    'expired status updates',
    () => sweepExpiredStatuses({ statuses: data.statuses, media: backends.media, clock, logger }),
    logger,
  );
  const consumer = new CommandConsumer(
    commands,
    host.commandHandlers,
    logger,
    metrics,
    { waitTimeSeconds: 20, visibilityTimeoutSeconds: env.COMMAND_VISIBILITY_TIMEOUT_S, maxMessages: 10 },
    host.sendRun,
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
  // Events a previous process stored but never handed over are relayed again from here on.
  relay.start();
  logger.info({ rpc: rpc?.url, mode: env.DEPLOYMENT_MODE, engine: env.ENGINE, resumed }, 'host started');

  let closing: Promise<void> | null = null;
  const close = (beforeStores?: () => Promise<void>) =>
    (closing ??= (async () => {
      stopRetention();
      stopStatusSweep();
      await consumer.stop();
      await rpc?.stopCommands();
      await host.shutdown();
      // Inline delivery refuses what still waits (failure rows) so the relay settles and removes every entry it holds;
      // autoreply evaluations under way finish too (their replies are queued before the queue closes).
      const delivered = webhooks.close();
      await relay.close();
      await delivered;
      await rpc?.close();
      await engine.close();
      await beforeStores?.();
      await audit.close();
      metrics.close();
      await backends.close();
    })());

  return {
    env,
    logger,
    clock,
    version: packageVersion(),
    metrics,
    audit,
    events,
    host,
    outcomes,
    backends,
    commands,
    engine,
    cluster,
    rpcUrl: rpc?.url ?? null,
    bootstrap,
    close,
  };
}
