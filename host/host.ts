/**
 * The host: runs one SessionRunner per started session on this node and answers the owner-directed calls of the
 * HostGateway port. In the embedded mode functions call it directly; in aws mode through its RPC server.
 */

import { setTimeout as delay } from 'node:timers/promises';
import type { InProcessMessageOutcomes } from '#shared/adapters/memory/in-process-message-outcomes.js';
import type { CommandOf, SessionCommand } from '#shared/domain/commands.js';
import {
  type HostOperation,
  type HostOperationHandlers,
  type HostOperationInput,
  type HostOperationResult,
  runOperation,
} from '#shared/domain/host-operations.js';
import { RUNNING_STATUSES, type Session, sessionLimitReason } from '#shared/domain/session.js';
import { UnavailableError } from '#shared/errors/app-error.js';
import type { Metrics } from '#shared/observability/metrics.js';
import type { HostGateway, HostStats } from '#shared/ports/host-gateway.port.js';
import type { MediaStorage } from '#shared/ports/media-storage.port.js';
import type { MessageStore } from '#shared/ports/message-store.port.js';
import type { DataStore } from '#shared/ports/stores.port.js';
import type { CommandQueue } from '#shared/queue/command-queue.js';
import { requeuePendingSends } from '#shared/use-cases/messages/requeue-pending-sends.js';
import type { SendBreaker } from '#shared/use-cases/messages/send-breaker.js';
import type { SendDeps } from '#shared/use-cases/messages/send-message.js';
import { HostBatches } from './batches/host-batches.js';
import { type Cluster, ClusterPlacement } from './cluster-placement.js';
import { type CommandHandlers, dispatchCommand, type SendRunHandler } from './commands/command-consumer.js';
import { type SendDeps as HostSendDeps, sendMessage, sendMessages } from './messages/send-message.js';
import { SettledSends } from './messages/settled-sends.js';
import { engineOperations } from './operations/engine-operations.js';
import { messageOperations } from './operations/message-operations.js';
import { sessionOperations } from './operations/session-operations.js';
import { statusOperations } from './operations/status-operations.js';
import { type RunnerDeps, SessionRunner } from './sessions/session-runner.js';
import { SessionStatusWriter } from './sessions/status-writer.js';

/** How long a queued send waits for its (resuming or reconnecting) session to be ready before it fails. */
const SEND_READY_WAIT_MS = 30_000;
/** How often a batch waiting for its session to be ready (or for an item's outcome) looks again. */
const BATCH_POLL_MS = 500;
/** Discarded session ids remembered (a bound on memory: a start races its delete within moments, not days). */
const MAX_DISCARDED = 10_000;

/** Waits `ms`, or less when `signal` aborts first (the host stopping). */
const sleep = (ms: number, signal: AbortSignal) =>
  delay(ms, undefined, { signal, ref: false }).catch(() => undefined);

export interface HostDeps extends RunnerDeps {
  commands: CommandQueue;
  /** MAX_CONCURRENT_SESSIONS: the most engines this host runs at once (0: no limit). */
  maxSessions: number;
  metrics: Metrics;
  messages: MessageStore;
  /** The data store the send use case works on: message batches send their items through it. */
  data: DataStore;
  /** The media archive: a media send's file is read from it. */
  media: MediaStorage;
  /** Settled sends are told here; waiting send requests (in-process, or over the RPC) listen. */
  outcomes: InProcessMessageOutcomes;
  /** Multi-node mode: leases, forwarding to other owners and the adoption sweep. Absent on a single node. */
  cluster?: Cluster;
  /** The send breaker (send pacing); absent or null unless SEND_PACING_ENABLED. */
  breaker?: SendBreaker | null;
  /** What batch items are sent with: the pacer, and media items' files (SSRF-guarded fetch; without, they fail). */
  batchSends?: Pick<SendDeps, 'pacing' | 'files'>;
}

export class Host implements HostGateway {
  private readonly runners = new Map<string, SessionRunner>();
  /**
   * Sessions discarded here on their way to deletion (ids are never reused). A start command of such a session that
   * this host carries out afterwards must not launch it: a start racing a delete could otherwise launch an engine
   * between the discard and the row's removal, and that engine would outlive its session.
   */
  private readonly discarded = new Set<string>();
  /** What the send path works with; the same for every send of this host. */
  private readonly sendDeps: HostSendDeps;
  private readonly batches: HostBatches;
  private readonly placement: ClusterPlacement | null;
  private readonly deps: HostDeps;

  constructor(deps: HostDeps) {
    // Multi-node: every status write of this host's runners also requires the lease to still be this node's.
    this.deps = deps.cluster ? { ...deps, owner: deps.cluster.nodeId } : deps;
    this.sendDeps = {
      messages: this.deps.messages,
      sink: this.deps.sink,
      runnerOf: (id) => this.runners.get(id),
      inFlight: new Set<string>(),
      outcomes: this.deps.outcomes,
      settled: new SettledSends({ audit: deps.audit, breaker: deps.breaker ?? null }),
      readyWaitMs: SEND_READY_WAIT_MS,
      logger: this.deps.logger,
      media: this.deps.media,
    };
    this.placement = deps.cluster
      ? new ClusterPlacement(deps.cluster, this.deps, {
          isLocal: (id) => this.runners.has(id),
          hasRoom: () => this.hasRoom(),
          launch: (session) => this.launch(session),
          endLocal: (id) => this.runners.get(id)?.shutdown() ?? Promise.resolve(),
        })
      : null;
    const { data, commands, clock, logger, outcomes } = this.deps;
    this.batches = new HostBatches({
      send: { data, commands, clock, logger, outcomes, ...deps.batchSends },
      isLocal: (id) => this.runners.has(id),
      sleep,
      random: deps.random ?? Math.random,
      pollMs: BATCH_POLL_MS,
    });
    const runnerOf = (id: string) => this.runners.get(id);
    const sessions = sessionOperations({ deps: this.deps, runnerOf });
    const { kind } = this.deps.engines;
    this.operations = {
      ...sessions,
      'session.discard': (input) => {
        this.markDiscarded(input.sessionId);
        return sessions['session.discard'](input);
      },
      ...messageOperations({ messages: this.deps.messages, outcomes: this.deps.outcomes }),
      ...engineOperations({ kind, sessions: this.deps.sessions, runnerOf, files: deps.batchSends?.files }),
      ...statusOperations({ kind, ...this.deps, statuses: data.statuses, runnerOf }),
      'command.run': async ({ command }) => {
        await this.handleCommand(command, true);
        return null;
      },
    };
  }

  /** The owner-directed operations this host answers (in-process, or through its RPC server): one table. */
  private readonly operations: HostOperationHandlers;

  /** What carries out each kind of queued command: the one dispatch table (the consumer and forwarded commands). */
  readonly commandHandlers: CommandHandlers = {
    'session.start': (command, forwarded) => this.handleStart(command, forwarded),
    'message.send': (command, forwarded) => this.handleSend(command, forwarded),
    'batch.run': (command, forwarded) => this.handleBatch(command, forwarded),
  };

  /** Carries out a command another host forwarded to this owner (or any queued command). */
  handleCommand(command: SessionCommand, forwarded = false): Promise<void> {
    return dispatchCommand(this.commandHandlers, command, forwarded);
  }

  /** Carries out a start command: launches the engine unless stopped or deleted meanwhile (`resume`: adoptReleased). */
  async handleStart(command: CommandOf<'session.start'>, forwarded = false): Promise<void> {
    if (command.reason === 'resume' && this.placement) return this.placement.adoptReleased(command.sessionId);
    const existing = this.runners.get(command.sessionId);
    if (existing) {
      await existing.reconnectNow();
      return;
    }
    let session = await this.deps.sessions.findById(command.sessionId);
    if (session?.status === 'initializing' && this.placement) {
      // Full here: the command goes back to the queue for a host with room (or this one, once it has room).
      if (!this.hasRoom()) throw new UnavailableError('HOST_AT_CAPACITY', this.fullReason());
      session = await this.placement.claimForStart(command, forwarded);
      if (!session) return;
    }
    if (session?.status !== 'initializing') {
      this.deps.logger.info(
        { sessionId: command.sessionId, status: session?.status },
        'start command dropped: no longer initializing',
      );
      return;
    }
    if (!this.hasRoom()) {
      await new SessionStatusWriter(this.deps, session.id).apply('engine_failed', {
        lastError: this.fullReason(),
      });
      return;
    }
    // The start request wrote `initializing`; its event is the host's to publish, once the engine is launching.
    await this.deps.events
      .publish({
        event: 'session.status',
        sessionId: session.id,
        occurredAt: this.deps.clock.now().toISOString(),
        data: { sessionId: session.id, status: 'initializing' },
      })
      .catch((error: unknown) => this.deps.logger.error({ err: error }, 'event publish failed'));
    await this.launch(session);
  }

  private markDiscarded(sessionId: string): void {
    this.discarded.add(sessionId);
    if (this.discarded.size > MAX_DISCARDED) {
      const oldest = this.discarded.values().next().value;
      if (oldest !== undefined) this.discarded.delete(oldest);
    }
  }

  private async launch(session: Session): Promise<void> {
    if (this.discarded.has(session.id)) {
      this.deps.logger.info({ sessionId: session.id }, 'start dropped: the session is being deleted');
      return;
    }
    const runner = new SessionRunner(
      this.deps,
      { id: session.id, name: session.name, config: session.config, proxyUrl: session.proxyUrl },
      (ended) => this.forget(ended),
    );
    this.runners.set(session.id, runner);
    this.deps.metrics.activeEngines.set(this.runners.size);
    await runner.launch();
    // Batches of the session that were under way (before a restart, on a host that lost it, before a stop) go on.
    void this.batches.resume(session.id);
    void requeuePendingSends(this.deps, session).catch((error: unknown) =>
      this.deps.logger.error({ err: error, sessionId: session.id }, 'pending sends not queued again'),
    );
  }

  /** Carries out a send command (see host/messages/send-message.ts); multi-node: where the session runs. */
  async handleSend(command: CommandOf<'message.send'>, forwarded = false): Promise<void> {
    if (this.placement && !this.runners.has(command.sessionId)) {
      if ((await this.placement.placeSend(command, forwarded)) === 'forwarded') return;
    }
    return sendMessage(this.sendDeps, command);
  }

  /**
   * Carries out consecutive send commands of one session together (sendMessages). A session that does not run here
   * (multi-node) takes them one by one, each placed as a single send would be.
   */
  readonly sendRun: SendRunHandler = async (commands) => {
    const [first] = commands;
    if (first && (!this.placement || this.runners.has(first.sessionId))) {
      return sendMessages(this.sendDeps, commands);
    }
    for (const [index, command] of commands.entries()) {
      try {
        await this.handleSend(command);
      } catch (error) {
        return { done: index, error };
      }
    }
    return { done: commands.length };
  };

  /**
   * Carries out a batch command: the batch runs in the background where its session runs (multi-node: forwarded to
   * the owner, or the session adopted here when its owner is gone), so the session's queued sends are not held
   * behind it. A session not running here now resumes the batch when it is launched again.
   */
  async handleBatch(command: CommandOf<'batch.run'>, forwarded = false): Promise<void> {
    if (this.placement && !this.runners.has(command.sessionId)) {
      if ((await this.placement.placeSend(command, forwarded)) === 'forwarded') return;
    }
    if (this.runners.has(command.sessionId)) this.batches.run(command.sessionId, command.batchId);
  }

  /**
   * At boot, before any command is consumed: sessions that were running when the gateway stopped are put back to
   * `initializing` and launched here, so they reconnect with their stored credentials (no new QR) and sends that
   * were queued before the restart find their session's runner.
   */
  async resumeRunningSessions(): Promise<number> {
    // Multi-node: only the sessions no other node holds, each claimed before it is touched.
    if (this.placement) {
      this.placement.start();
      return this.placement.adoptLapsed();
    }
    const sessions = await this.deps.sessions.listByStatus([...RUNNING_STATUSES]);
    // Before the API answers (the host starts first): a library that fails to load fails each launch, which says so.
    if (sessions.length > 0) await this.deps.engines.preload?.().catch(() => undefined);
    for (const session of sessions) {
      const writer = new SessionStatusWriter(this.deps, session.id);
      // More sessions than this host may run (MAX_CONCURRENT_SESSIONS lowered since): the newest ones fail.
      if (!this.hasRoom()) {
        await writer.apply('engine_failed', { lastError: this.fullReason() });
        continue;
      }
      const resumed = await writer.apply('resume');
      // Not awaited: the runner is registered at once (a queued send finds it and waits for it to be ready), and
      // its engine connects when a connect slot is free.
      if (resumed?.status === 'initializing' && !this.runners.has(session.id)) {
        this.launch(resumed).catch((error: unknown) =>
          this.deps.logger.error({ err: error, sessionId: session.id }, 'session not resumed'),
        );
      }
    }
    return sessions.length;
  }

  /** Room for one more engine on this host. */
  private hasRoom(): boolean {
    return this.deps.maxSessions === 0 || this.runners.size < this.deps.maxSessions;
  }

  private fullReason(): string {
    return `${sessionLimitReason(this.deps.maxSessions)} on this host`;
  }

  /** Runs an owner-directed operation on this host's runner of the session. */
  call<Op extends HostOperation>(
    operation: Op,
    input: HostOperationInput<Op>,
  ): Promise<HostOperationResult<Op>> {
    return runOperation(this.operations, operation, input);
  }

  async stats(sessionIds?: readonly string[]): Promise<HostStats> {
    if (!sessionIds) return { activeEngines: this.runners.size };
    return { activeEngines: sessionIds.filter((id) => this.runners.has(id)).length };
  }

  /**
   * Stops every engine without touching the rows, so the sessions resume on the next boot, and waits until what the
   * engines reported is stored (multi-node: then hands the sessions over, see ClusterPlacement.releaseAll).
   */
  async shutdown(): Promise<void> {
    this.placement?.beginShutdown();
    await this.batches.stop();
    await Promise.allSettled([...this.runners.values()].map((runner) => runner.shutdown()));
    await this.deps.sink.drain();
    await this.placement?.releaseAll();
  }

  private forget(runner: SessionRunner): void {
    if (this.runners.get(runner.session.id) !== runner) return;
    this.runners.delete(runner.session.id);
    this.deps.metrics.activeEngines.set(this.runners.size);
    this.placement?.ended(runner.session.id);
  }
}
