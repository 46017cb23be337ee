/**
 * The host's handlers of the session operations (shared/domain/host-operations.ts): stop, logout, force-kill, QR,
 * pairing code and discard, carried out on this host's runner of the session. Other domains (chats, groups,
 * contacts…) get a file of their own beside this one.
 */
import type { EngineFactory } from '#host/engines/engine.port.js';
import type { SessionRunner } from '#host/sessions/session-runner.js';
import { SessionStatusWriter, type StatusWriterDeps } from '#host/sessions/status-writer.js';
import type { HostOperationHandlers } from '#shared/domain/host-operations.js';
import type { Session } from '#shared/domain/session.js';
import { ConflictError, NotFoundError, SessionStateError } from '#shared/errors/app-error.js';
import { requireCapability } from '#shared/use-cases/engine/require-capability.js';

/** What the session operations need of the host. */
export interface SessionOperationContext {
  deps: StatusWriterDeps & { engines: EngineFactory };
  runnerOf(sessionId: string): SessionRunner | undefined;
}

type SessionOperations = Pick<
  HostOperationHandlers,
  | 'session.stop'
  | 'session.logout'
  | 'session.forceKill'
  | 'session.qr'
  | 'session.pairingCode'
  | 'session.discard'
>;

export function sessionOperations({ deps, runnerOf }: SessionOperationContext): SessionOperations {
  const read = async (sessionId: string) => existing(sessionId, await deps.sessions.findById(sessionId));
  return {
    'session.stop': async ({ sessionId }) => {
      const runner = runnerOf(sessionId);
      const session = runner
        ? await runner.stop()
        : await new SessionStatusWriter(deps, sessionId).apply('stop', { lastError: null });
      return existing(sessionId, session);
    },

    'session.logout': async ({ sessionId }) => {
      const runner = runnerOf(sessionId);
      // Unlinking needs the network: a runner waiting out a reconnect backoff has no connection, so the request is
      // refused with the row untouched (stop or delete still work).
      if (!runner?.hasLiveEngine) {
        throw new SessionStateError(
          'SESSION_NOT_STARTED',
          'Session is not started (no live connection to log out)',
        );
      }
      return existing(sessionId, await runner.logout());
    },

    'session.forceKill': async ({ sessionId }) => {
      const runner = runnerOf(sessionId);
      // Only a live engine can be killed: a runner waiting out a reconnect backoff has none, and force-kill must
      // neither report (and audit) a kill that did not happen nor cancel the pending reconnect.
      if (!runner?.hasLiveEngine)
        throw new SessionStateError('SESSION_NOT_STARTED', 'Session is not started');
      return existing(sessionId, await runner.forceKill());
    },

    'session.qr': async ({ sessionId }) => {
      const qr = runnerOf(sessionId)?.qr;
      const session = await read(sessionId);
      if (qr && session.status === 'qr_ready') return { qr, status: session.status };
      refuseIfAuthenticated(session);
      throw new SessionStateError('QR_NOT_AVAILABLE', `QR code is not ready (session is ${session.status})`);
    },

    'session.pairingCode': async ({ sessionId, phone }) => {
      // The use case refused already; checked again for callers that reach the host directly (RPC).
      requireCapability(deps.engines.kind, 'pairing_code');
      const runner = runnerOf(sessionId);
      const session = await read(sessionId);
      refuseIfAuthenticated(session);
      if (!runner?.hasLiveEngine)
        throw new SessionStateError('SESSION_NOT_STARTED', 'Session is not started');
      if (session.status !== 'qr_ready') {
        throw new ConflictError(
          'SESSION_BUSY',
          `Session is ${session.status}; request a pairing code once it shows a QR`,
          { retryable: true },
        );
      }
      const pairing = runner.port('pairing');
      if (!pairing) throw new SessionStateError('SESSION_NOT_STARTED', 'Session is not started');
      return { pairingCode: await pairing.requestPairingCode(phone), status: session.status };
    },

    'session.discard': async ({ sessionId }) => {
      await runnerOf(sessionId)?.discard();
      await deps.engines.wipeCredentials(sessionId);
      return null;
    },
  };
}

function existing(sessionId: string, session: Session | null): Session {
  if (!session) throw new NotFoundError(`Session '${sessionId}' not found`);
  return session;
}

function refuseIfAuthenticated(session: Session): void {
  if (session.status === 'ready' || session.status === 'authenticating') {
    throw new SessionStateError('ALREADY_AUTHENTICATED', 'Session is already authenticated');
  }
}
