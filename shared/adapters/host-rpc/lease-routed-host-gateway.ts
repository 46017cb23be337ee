/**
 * The HostGateway of multi-node deployments: an owner-directed call goes to the host holding the session's live
 * lease, through the host RPC. A session no host owns gets the answer its row implies (what the owner would say
 * without an engine), written only while it is still unowned, so a function can never overwrite a live owner's
 * state. An owner that holds a live lease but does not answer is a retryable 409: nothing destructive happens.
 */
import type { HostRpcOp, HostRpcRequestOf, HostRpcResultOf } from '#shared/domain/host-rpc.js';
import type { Session } from '#shared/domain/session.js';
import { nextStatus } from '#shared/domain/session-status-machine.js';
import { AppError, ConflictError, NotFoundError, SessionStateError } from '#shared/errors/app-error.js';
import type { Clock } from '#shared/ports/clock.port.js';
import type { HostGateway, HostStats, PairingCode, QrSnapshot } from '#shared/ports/host-gateway.port.js';
import type { HostRpcClient } from '#shared/ports/host-rpc.port.js';
import { liveOwnerUrl, type SessionStore } from '#shared/ports/session-store.port.js';

export interface LeaseRoutedHostGatewayDeps {
  sessions: SessionStore;
  clock: Clock;
  rpc: HostRpcClient;
  /** Wipes stored credentials of a session no host runs (delete of an unowned session). */
  wipeCredentials(sessionId: string): Promise<void>;
}

/** Rounds of "unowned write lost to a new owner → ask that owner" before giving up. */
const MAX_ROUTING_ATTEMPTS = 3;

const LEASE_FIELDS_CLEARED = { nodeId: null, nodeUrl: null, claimedAt: null, leaseExpiresAt: null } as const;

export class LeaseRoutedHostGateway implements HostGateway {
  constructor(private readonly deps: LeaseRoutedHostGatewayDeps) {}

  stop(sessionId: string): Promise<Session> {
    return this.route(sessionId, { op: 'stop', sessionId }, (session) => this.stopUnowned(session));
  }

  logout(sessionId: string): Promise<Session> {
    return this.route(sessionId, { op: 'logout', sessionId }, async () => {
      throw new SessionStateError(
        'SESSION_NOT_STARTED',
        'Session is not started (no live connection to log out)',
      );
    });
  }

  forceKill(sessionId: string): Promise<Session> {
    return this.route(sessionId, { op: 'forceKill', sessionId }, async () => {
      throw new SessionStateError('SESSION_NOT_STARTED', 'Session is not started');
    });
  }

  getQr(sessionId: string): Promise<QrSnapshot> {
    return this.route(sessionId, { op: 'getQr', sessionId }, async (session) => {
      refuseIfAuthenticated(session);
      throw new SessionStateError('QR_NOT_AVAILABLE', `QR code is not ready (session is ${session.status})`);
    });
  }

  requestPairingCode(sessionId: string, phone: string): Promise<PairingCode> {
    return this.route(sessionId, { op: 'requestPairingCode', sessionId, phone }, async (session) => {
      refuseIfAuthenticated(session);
      throw new SessionStateError('SESSION_NOT_STARTED', 'Session is not started');
    });
  }

  async discard(sessionId: string): Promise<void> {
    const session = await this.deps.sessions.findById(sessionId);
    const owner = session ? liveOwnerUrl(session, this.deps.clock.now()) : null;
    // The owner stops its engine and wipes; otherwise nothing runs and the stored credentials are wiped here.
    if (owner) await this.callOwner(owner, { op: 'discard', sessionId });
    else await this.deps.wipeCredentials(sessionId);
  }

  /** Engines across the deployment: sessions whose lease is live (a scoped caller sees only its sessions). */
  async stats(sessionIds?: readonly string[]): Promise<HostStats> {
    const now = this.deps.clock.now();
    const sessions = await this.deps.sessions.list(sessionIds ? { ids: sessionIds } : {}, {
      limit: 100_000,
      offset: 0,
    });
    return { activeEngines: sessions.filter((session) => liveOwnerUrl(session, now) !== null).length };
  }

  private async route<Op extends HostRpcOp, R>(
    sessionId: string,
    request: HostRpcRequestOf<Op>,
    unowned: (session: Session) => Promise<R | null>,
  ): Promise<R | HostRpcResultOf<Op>> {
    for (let attempt = 0; attempt < MAX_ROUTING_ATTEMPTS; attempt++) {
      const session = await this.deps.sessions.findById(sessionId);
      if (!session) throw new NotFoundError(`Session '${sessionId}' not found`);
      const owner = liveOwnerUrl(session, this.deps.clock.now());
      if (owner) return this.callOwner(owner, request);
      // null: a host claimed the session between our read and our write; ask again who owns it.
      const answer = await unowned(session);
      if (answer !== null) return answer;
    }
    throw new ConflictError('SESSION_BUSY', 'The session changed owner repeatedly; retry', {
      retryable: true,
    });
  }

  private async callOwner<Op extends HostRpcOp>(
    nodeUrl: string,
    request: HostRpcRequestOf<Op>,
  ): Promise<HostRpcResultOf<Op>> {
    try {
      return await this.deps.rpc.call(nodeUrl, request);
    } catch (error) {
      if (error instanceof AppError && error.code === 'HOST_UNAVAILABLE') {
        throw new ConflictError(
          'SESSION_OWNER_UNREACHABLE',
          'The host that runs this session cannot be reached right now; retry shortly',
          { retryable: true, cause: error },
        );
      }
      throw error;
    }
  }

  /** `stop` of a session no host runs: settle the row (and drop a dead owner's lapsed lease) if still unowned. */
  private async stopUnowned(session: Session): Promise<Session | null> {
    const now = this.deps.clock.now();
    const to = nextStatus(session.status, 'stop');
    if (to === null) return session;
    const result = await this.deps.sessions.update(
      session.id,
      { ...LEASE_FIELDS_CLEARED, status: to, lastError: null, updatedAt: now.toISOString() },
      { expectStatus: [session.status], expectUnownedAt: now },
    );
    if (result.outcome === 'not_found') throw new NotFoundError(`Session '${session.id}' not found`);
    return result.outcome === 'updated' ? result.session : null;
  }
}

function refuseIfAuthenticated(session: Session): void {
  if (session.status === 'ready' || session.status === 'authenticating') {
    throw new SessionStateError('ALREADY_AUTHENTICATED', 'Session is already authenticated');
  }
}
