import type { AuditAction } from '#shared/domain/audit.js';
import type { Caller } from '#shared/domain/caller.js';
import { type SessionResponse, toSessionResponse } from '#shared/domain/session.js';
import type { HostGateway } from '#shared/ports/host-gateway.port.js';
import type { CoreDeps } from '#shared/use-cases/core-deps.js';
import { loadSession } from './load-session.js';

type Control = 'stop' | 'logout' | 'forceKill';

const AUDIT: Record<Control, AuditAction> = {
  stop: 'session_stopped',
  logout: 'session_logged_out',
  forceKill: 'session_force_killed',
};

async function control(
  deps: Pick<CoreDeps, 'data' | 'host' | 'audit'>,
  caller: Caller,
  id: string,
  operation: Control,
): Promise<SessionResponse> {
  const session = await loadSession(deps.data.sessions, caller, id);
  const call: Record<Control, HostGateway['stop']> = {
    stop: (sid) => deps.host.stop(sid),
    logout: (sid) => deps.host.logout(sid),
    forceKill: (sid) => deps.host.forceKill(sid),
  };
  // The host throws the refusals (400 not started, 502 incomplete); the success audit is written only after it.
  const updated = await call[operation](id);
  await deps.audit.record(caller, { action: AUDIT[operation], sessionId: id, sessionName: session.name });
  return toSessionResponse(updated);
}

/** Stops the session's engine, keeping its credentials; the session ends `disconnected`. */
export const stopSession = (deps: Pick<CoreDeps, 'data' | 'host' | 'audit'>, caller: Caller, id: string) =>
  control(deps, caller, id, 'stop');

/** Unlinks the device (credentials wiped, phone cleared). 400 not started; 502 SESSION_LOGOUT_INCOMPLETE. */
export const logoutSession = (deps: Pick<CoreDeps, 'data' | 'host' | 'audit'>, caller: Caller, id: string) =>
  control(deps, caller, id, 'logout');

/** Kills a stuck engine and tears the session down. 400 not started. */
export const forceKillSession = (
  deps: Pick<CoreDeps, 'data' | 'host' | 'audit'>,
  caller: Caller,
  id: string,
) => control(deps, caller, id, 'forceKill');
