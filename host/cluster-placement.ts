/**
 * Where a session runs when several hosts share the stores (multi-node mode, DESIGN §3): a host launches an engine
 * only for a session whose lease it just claimed; a command for a session another live host owns is forwarded to
 * that owner over the host RPC (awaited, so FIFO order per session holds); sessions that should be running but whose
 * owner's lease lapsed (a crashed host) are adopted by the sweep, or at once by a host that receives their command.
 * A host that shuts down gives its leases back and queues a `resume` start command for each session it ran, so a
 * live host adopts them as soon as the queue hands it one, not at its next sweep.
 */
import type { CommandOf, SessionCommand } from '#shared/domain/commands.js';
import { RUNNING_STATUSES, type Session } from '#shared/domain/session.js';
import { UnavailableError } from '#shared/errors/app-error.js';
import type { HostRpcClient } from '#shared/ports/host-rpc.port.js';
import { liveOwnerUrl } from '#shared/ports/session-store.port.js';
import type { CommandQueue } from '#shared/queue/command-queue.js';
import { type ClaimResult, LeaseKeeper } from './sessions/lease-keeper.js';
import { SessionStatusWriter, type StatusWriterDeps } from './sessions/status-writer.js';

/** What a host needs to take part in a multi-node deployment. */
export interface Cluster {
  nodeId: string;
  /** Where other hosts and functions reach this host's RPC API. */
  nodeUrl: string;
  rpc: HostRpcClient;
  leaseTtlMs: number;
  leaseRenewMs: number;
  sweepMs: number;
}

/** The host's local runners, as placement sees them. */
export interface LocalRunners {
  isLocal(sessionId: string): boolean;
  /** Room for one more engine here (MAX_CONCURRENT_SESSIONS). */
  hasRoom(): boolean;
  launch(session: Session): Promise<void>;
  /** Ends the local engine without writing the row (the lease is gone). */
  endLocal(sessionId: string): Promise<void>;
}

/** What placement works with: the status writer's deps, and the command queue a shutdown hands its sessions to. */
export interface PlacementDeps extends StatusWriterDeps {
  commands: Pick<CommandQueue, 'send'>;
}

const RUNNING = [...RUNNING_STATUSES];
const ADOPTABLE = [...RUNNING, 'disconnected' as const];

export class ClusterPlacement {
  readonly leases: LeaseKeeper;
  private readonly lost = new Set<string>();
  /**
   * Sessions a start command or an adoption is placing on this host right now (claim, resume, launch). A start
   * command and this host's own sweep can both find the same `initializing` session: the first one to get here
   * places it and the other stands aside, so one host never launches two engines for a session, nor gives back the
   * lease of an engine it has just launched.
   */
  private readonly placing = new Set<string>();
  private shuttingDown = false;
  private sweepTimer: NodeJS.Timeout | null = null;
  private sweeping: Promise<unknown> = Promise.resolve();

  constructor(
    private readonly cluster: Cluster,
    private readonly deps: PlacementDeps,
    private readonly local: LocalRunners,
  ) {
    this.leases = new LeaseKeeper(
      {
        sessions: deps.sessions,
        clock: deps.clock,
        logger: deps.logger,
        nodeId: cluster.nodeId,
        nodeUrl: cluster.nodeUrl,
        ttlMs: cluster.leaseTtlMs,
        renewMs: cluster.leaseRenewMs,
      },
      (sessionId) => this.onLost(sessionId),
    );
  }

  /** Starts lease renewals and the adoption sweep. */
  start(): void {
    this.leases.start();
    this.sweepTimer ??= setInterval(() => {
      this.sweeping = this.sweeping.then(() =>
        this.adoptLapsed().catch((error: unknown) => this.deps.logger.error({ err: error }, 'sweep failed')),
      );
    }, this.cluster.sweepMs);
    this.sweepTimer.unref();
  }

  /**
   * A start command: claims the session for this host. Answers the claimed row, or null when the command is done
   * here: forwarded to the live owner, or dropped (stopped, deleted meanwhile).
   */
  async claimForStart(command: CommandOf<'session.start'>, forwarded: boolean): Promise<Session | null> {
    if (this.placing.has(command.sessionId)) {
      this.deps.logger.info({ sessionId: command.sessionId }, 'start command dropped: being adopted here');
      return null;
    }
    this.placing.add(command.sessionId);
    let claim: ClaimResult;
    try {
      claim = await this.leases.claim(command.sessionId, ['initializing']);
    } finally {
      // From here the lease is held (the caller launches at once), which keeps the sweep away (see adopt).
      this.placing.delete(command.sessionId);
    }
    if (claim.outcome === 'claimed') return claim.session;
    if (claim.outcome === 'closed') {
      throw new UnavailableError('SHUTTING_DOWN', 'This host is shutting down; the command is retried');
    }
    if (claim.outcome === 'refused' && claim.session.status === 'initializing') {
      const owner = this.otherLiveOwner(claim.session);
      if (owner) {
        await this.forward(owner, command, forwarded);
        return null;
      }
    }
    this.deps.logger.info({ sessionId: command.sessionId }, 'start command dropped: not claimable here');
    return null;
  }

  /**
   * A `resume` start command, queued by a host that shut down for a session it ran and released: adopted here at
   * once, unless a live host runs it already (a sweep or a send took it first) or it stopped meanwhile. The lease
   * still decides: of two hosts receiving such a command, one claim wins and the other stands aside.
   */
  async adoptReleased(sessionId: string): Promise<void> {
    const session = await this.deps.sessions.findById(sessionId);
    if (!session || !RUNNING_STATUSES.has(session.status) || this.otherLiveOwner(session)) {
      this.deps.logger.info({ sessionId, status: session?.status }, 'hand-over dropped: placed or stopped');
      return;
    }
    // Full here: the command goes back to the queue for a host with room.
    if (!this.local.hasRoom() && !this.local.isLocal(sessionId)) {
      throw new UnavailableError('HOST_AT_CAPACITY', 'No room for another session on this host');
    }
    await this.adopt(session);
  }

  /**
   * A send or batch for a session with no local runner: forwarded to its live owner, or adopted here when lapsed.
   */
  async placeSend(
    command: CommandOf<'message.send' | 'batch.run'>,
    forwarded: boolean,
  ): Promise<'forwarded' | 'local'> {
    const session = await this.deps.sessions.findById(command.sessionId);
    if (!session) return 'local';
    const owner = this.otherLiveOwner(session);
    if (owner) {
      await this.forward(owner, command, forwarded);
      return 'forwarded';
    }
    if (shouldRun(session)) await this.adopt(session);
    return 'local';
  }

  /**
   * Claims and launches every session that should be running and has no live owner; answers how many. That is a
   * running status, or `disconnected` with an owner: a session in reconnect backoff keeps its lease (a stop, logout
   * or failure gives it back in the same write), so a lapsed one there means its host died while reconnecting.
   */
  async adoptLapsed(): Promise<number> {
    let adopted = 0;
    for (const session of await this.deps.sessions.listByStatus(ADOPTABLE)) {
      // Full: the rest is for hosts with room, or for this one at a later sweep.
      if (this.shuttingDown || !this.local.hasRoom()) break;
      if (!shouldRun(session)) continue;
      if (this.local.isLocal(session.id) || this.otherLiveOwner(session)) continue;
      if (await this.adopt(session)) adopted++;
    }
    return adopted;
  }

  /** A runner ended: its lease goes back soon, unless the host is shutting down (released after) or lost it. */
  ended(sessionId: string): void {
    if (this.lost.delete(sessionId) || this.shuttingDown) return;
    this.leases.retire(sessionId);
  }

  beginShutdown(): void {
    this.shuttingDown = true;
    if (this.sweepTimer) clearInterval(this.sweepTimer);
    this.sweepTimer = null;
  }

  /**
   * After every engine stopped: stops renewals, gives every lease back, and queues a `resume` start command for each
   * session that was running here (see adoptReleased). A session in reconnect backoff is not handed over: its row
   * says disconnected and unowned once released, which no host adopts (it resumes when started again).
   */
  async releaseAll(): Promise<void> {
    await this.sweeping;
    await this.leases.stop();
    const released = await this.leases.releaseAll();
    await Promise.all(
      released
        .filter((session) => RUNNING_STATUSES.has(session.status))
        .map((session) => this.handOver(session.id)),
    );
  }

  private async handOver(sessionId: string): Promise<void> {
    const requestedAt = this.deps.clock.now().toISOString();
    try {
      await this.deps.commands.send({ type: 'session.start', sessionId, reason: 'resume', requestedAt });
    } catch (error) {
      // The session then waits for another host's sweep (LEASE_SWEEP_MS), as it would after a crash.
      this.deps.logger.warn({ err: error, sessionId }, 'hand-over not queued; a sweep adopts the session');
    }
  }

  /**
   * Claims, resumes and launches a session no live host runs. Not when this host runs it, holds its lease (a start
   * command claimed it and its engine is being launched, or it is ending and its lease goes back at the next
   * renewal round) or is placing it already: claiming its own lease again would succeed and launch a second engine.
   */
  private async adopt(session: Session): Promise<boolean> {
    const { id } = session;
    if (this.local.isLocal(id) || this.leases.holds(id) || this.placing.has(id)) return false;
    if (!this.local.hasRoom()) return false;
    this.placing.add(id);
    let launched = false;
    try {
      const backoff = session.status === 'disconnected';
      const claim = await this.leases.claim(id, backoff ? ['disconnected'] : RUNNING);
      if (claim.outcome !== 'claimed') return false;
      try {
        // A sweep or a send that began before the shutdown: no engine is launched once the engines are stopping.
        if (this.shuttingDown) return false;
        // A claim does not touch updatedAt, and a dead owner writes nothing: a changed row was stopped meanwhile
        // (the write that stops it also clears the owner, which the claim would not notice).
        if (backoff && claim.session.updatedAt !== session.updatedAt) return false;
        const writer = new SessionStatusWriter({ ...this.deps, owner: this.cluster.nodeId }, id);
        const resumed = await writer.apply(claim.session.status === 'disconnected' ? 'reconnect' : 'resume');
        if (resumed?.status !== 'initializing') return false;
        this.deps.logger.info({ sessionId: id, from: session.nodeId }, 'session adopted');
        launched = true;
        await this.local.launch(resumed);
        return true;
      } finally {
        // Claimed but nothing launched (stopped meanwhile, or the resume write failed): give it back now, or it
        // would be renewed with no engine behind it.
        if (!launched) await this.leases.release(id);
      }
    } finally {
      this.placing.delete(id);
    }
  }

  private otherLiveOwner(session: Session): string | null {
    if (session.nodeId === this.cluster.nodeId) return null;
    return liveOwnerUrl(session, this.deps.clock.now());
  }

  private async forward(nodeUrl: string, command: SessionCommand, forwarded: boolean): Promise<void> {
    // A forwarded command is never forwarded again (two hosts must not bounce it): the sender gets a retryable 5xx
    // and the queue redelivers it once ownership has settled. An unreachable owner rejects the same way.
    if (forwarded) {
      throw new UnavailableError(
        'HOST_UNAVAILABLE',
        'The session changed owner; the command is retried later',
      );
    }
    this.deps.logger.debug(
      { sessionId: command.sessionId, type: command.type, owner: nodeUrl },
      'command forwarded to the owner',
    );
    await this.cluster.rpc.call(nodeUrl, 'command.run', { sessionId: command.sessionId, command });
  }

  private onLost(sessionId: string): void {
    this.lost.add(sessionId);
    void this.local.endLocal(sessionId);
  }
}

/** A session an engine should run for: a running status, or reconnect backoff (disconnected, still owned). */
function shouldRun(session: Session): boolean {
  return (
    RUNNING_STATUSES.has(session.status) || (session.status === 'disconnected' && session.nodeId !== null)
  );
}
