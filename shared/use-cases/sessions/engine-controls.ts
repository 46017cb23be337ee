import type { AuditAction } from '#shared/domain/audit.js';
import type { Caller } from '#shared/domain/caller.js';
import { type SessionResponse, toSessionResponse } from '#shared/domain/session.js';
import type { CoreDeps } from '#shared/use-cases/core-deps.js';
import { loadSession } from './load-session.js';

type Control = 'session.stop' | 'session.logout' | 'session.forceKill';

const AUDIT: Record<Control, AuditAction> = {
  'session.stop': 'session_stopped',
  'session.logout': 'session_logged_out',
  'session.forceKill': 'session_force_killed',
};

async function control(
  deps: Pick<CoreDeps, 'data' | 'host' | 'audit'>,
  caller: Caller,
  id: string,
  operation: Control,
): Promise<SessionResponse> {
  const session = await loadSession(deps.data.sessions, caller, id);
  // The host throws the refusals (400 not started, 502 incomplete); the success audit is written only after it.
  const updated = await deps.host.call(operation, { sessionId: id });
  await deps.audit.record(caller, { action: AUDIT[operation], sessionId: id, sessionName: session.name });
  return toSessionResponse(updated);
}

/** Stops the session's engine, keeping its credentials; the session ends `disconnected`. */
export const stopSession = (deps: Pick<CoreDeps, 'data' | 'host' | 'audit'>, caller: Caller, id: string) =>
  control(deps, caller, id, 'session.stop');

/** Unlinks the device (credentials wiped, phone cleared). 400 not started; 502 SESSION_LOGOUT_INCOMPLETE. */
export const logoutSession = (deps: Pick<CoreDeps, 'data' | 'host' | 'audit'>, caller: Caller, id: string) =>
  control(deps, caller, id, 'session.logout');

/** Kills a stuck engine and tears the session down. 400 not started. */
export const forceKillSession = (
  deps: Pick<CoreDeps, 'data' | 'host' | 'audit'>,
  caller: Caller,
  id: string,
) => control(deps, caller, id, 'session.forceKill');
