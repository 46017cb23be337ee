/**
 * The HostGateway of multi-node deployments: an owner-directed operation goes to the host holding the session's live
 * lease, through the host RPC. A session no host owns gets the answer its row implies (what the owner would say
 * without an engine), written only while it is still unowned, so a function can never overwrite a live owner's
 * state. An owner that holds a live lease but does not answer is a retryable 409: nothing destructive happens.
 */
import {
  ENGINE_OPERATION_ROWS,
  type EngineOperationName,
} from '#shared/domain/engine-operations/engine-operations.js';
import type {
  HostOperation,
  HostOperationInput,
  HostOperationResult,
} from '#shared/domain/host-operations.js';
import type { Session } from '#shared/domain/session.js';
import { nextStatus } from '#shared/domain/session-status-machine.js';
import {
  AppError,
  ConflictError,
  NotFoundError,
  SessionStateError,
  UnavailableError,
} from '#shared/errors/app-error.js';
import type { Clock } from '#shared/ports/clock.port.js';
import type { HostGateway, HostStats } from '#shared/ports/host-gateway.port.js';
import type { HostRpcClient } from '#shared/ports/host-rpc.port.js';
import { liveOwnerUrl, type SessionStore } from '#shared/ports/session-store.port.js';
import { answerNotRunning, notRunning } from '#shared/use-cases/engine/engine-operation-state.js';

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

/** An unowned answer lost its race: a host claimed the session meanwhile, so its owner is asked instead. */
const CLAIMED_MEANWHILE = Symbol('claimed meanwhile');

/** What each operation answers for a session no host owns (its row as read; null when there is none). */
type UnownedAnswers = {
  [Op in HostOperation]: (
    session: Session | null,
    input: HostOperationInput<Op>,
  ) => Promise<HostOperationResult<Op> | typeof CLAIMED_MEANWHILE>;
};

/** Every engine operation row answers for an unowned session what its policy says (engine-operation-state.ts). */
function engineOperationsUnowned(): Pick<UnownedAnswers, EngineOperationName> {
  const answers = ENGINE_OPERATION_ROWS.map((row) => {
    const answer = async (session: Session | null, input: { sessionId: string }) =>
      answerNotRunning(row, existing(session, input.sessionId));
    return [row.name, answer] as const;
  });
  return Object.fromEntries(answers) as unknown as Pick<UnownedAnswers, EngineOperationName>;
}

export class LeaseRoutedHostGateway implements HostGateway {
  private readonly unowned: UnownedAnswers = {
    'session.stop': async (session, input) => this.stopUnowned(existing(session, input.sessionId)),
    'session.logout': async (session, input) => {
      existing(session, input.sessionId);
      throw new SessionStateError(
        'SESSION_NOT_STARTED',
        'Session is not started (no live connection to log out)',
      );
    },
    'session.forceKill': async (session, input) => {
      existing(session, input.sessionId);
      throw new SessionStateError('SESSION_NOT_STARTED', 'Session is not started');
    },
    'session.qr': async (session, input) => {
      const row = refuseIfAuthenticated(existing(session, input.sessionId));
      throw new SessionStateError('QR_NOT_AVAILABLE', `QR code is not ready (session is ${row.status})`);
    },
    'session.pairingCode': async (session, input) => {
      refuseIfAuthenticated(existing(session, input.sessionId));
      throw new SessionStateError('SESSION_NOT_STARTED', 'Session is not started');
    },
    // Nothing runs: the stored credentials are wiped here (also those of a row already gone).
    'session.discard': async (_session, input) => {
      await this.deps.wipeCredentials(input.sessionId);
      return null;
    },
    // Nobody runs the session, so nobody will settle the message: the caller reads the row as it stands.
    'message.awaitOutcome': async (session, input) => {
      existing(session, input.sessionId);
      return { settled: false };
    },
    'command.run': async () => {
      throw new UnavailableError('HOST_UNAVAILABLE', 'No host runs this session; the command waits for one');
    },
    // No engine runs: nothing can reach the network (as every engine operation answers).
    'status.post': async (session, input) => notRunning(existing(session, input.sessionId)),
    'status.revoke': async (session, input) => notRunning(existing(session, input.sessionId)),
    ...engineOperationsUnowned(),
  };

  constructor(private readonly deps: LeaseRoutedHostGatewayDeps) {}

  async call<Op extends HostOperation>(
    operation: Op,
    input: HostOperationInput<Op>,
  ): Promise<HostOperationResult<Op>> {
    const unowned = this.unowned[operation] as UnownedAnswers[Op];
    for (let attempt = 0; attempt < MAX_ROUTING_ATTEMPTS; attempt++) {
      const session = await this.deps.sessions.findById(input.sessionId);
      const owner = session ? liveOwnerUrl(session, this.deps.clock.now()) : null;
      if (owner) return this.callOwner(owner, operation, input);
      const answer = await unowned(session, input);
      if (answer !== CLAIMED_MEANWHILE) return answer;
    }
    throw new ConflictError('SESSION_BUSY', 'The session changed owner repeatedly; retry', {
      retryable: true,
    });
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

  private async callOwner<Op extends HostOperation>(
    nodeUrl: string,
    operation: Op,
    input: HostOperationInput<Op>,
  ): Promise<HostOperationResult<Op>> {
    try {
      return await this.deps.rpc.call(nodeUrl, operation, input);
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
  private async stopUnowned(session: Session): Promise<Session | typeof CLAIMED_MEANWHILE> {
    const now = this.deps.clock.now();
    const to = nextStatus(session.status, 'stop');
    if (to === null) return session;
    const result = await this.deps.sessions.update(
      session.id,
      { ...LEASE_FIELDS_CLEARED, status: to, lastError: null, updatedAt: now.toISOString() },
      { expectStatus: [session.status], expectUnownedAt: now },
    );
    if (result.outcome === 'not_found') throw new NotFoundError(`Session '${session.id}' not found`);
    return result.outcome === 'updated' ? result.session : CLAIMED_MEANWHILE;
  }
}

function existing(session: Session | null, sessionId: string): Session {
  if (!session) throw new NotFoundError(`Session '${sessionId}' not found`);
  return session;
}

function refuseIfAuthenticated(session: Session): Session {
  if (session.status === 'ready' || session.status === 'authenticating') {
    throw new SessionStateError('ALREADY_AUTHENTICATED', 'Session is already authenticated');
  }
  return session;
}
