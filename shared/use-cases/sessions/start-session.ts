import type { Caller } from '#shared/domain/caller.js';
import {
  RUNNING_STATUSES,
  type Session,
  type SessionResponse,
  sessionLimitReason,
  toSessionResponse,
} from '#shared/domain/session.js';
import { statusesAllowing } from '#shared/domain/session-status-machine.js';
import { SessionStateError, UnavailableError } from '#shared/errors/app-error.js';
import type { CoreDeps } from '#shared/use-cases/core-deps.js';
import { loadSession } from './load-session.js';
import { assertNoTeardownPending } from './teardown-fence.js';

/**
 * Starts a session: moves it to `initializing` with a compare-and-set (two concurrent starts cannot both win) and
 * puts a start command on the queue for a host to claim. If the enqueue fails the row is put back.
 */
export async function startSession(
  deps: Pick<CoreDeps, 'data' | 'commands' | 'audit' | 'clock' | 'logger' | 'sessionLimit'>,
  caller: Caller,
  id: string,
): Promise<SessionResponse> {
  const session = await loadSession(deps.data.sessions, caller, id);
  await assertNoTeardownPending(deps.data.fences, deps.clock, session.name);
  await assertRoomForSession(deps, session);
  const now = deps.clock.now();
  const claimed = await deps.data.sessions.update(
    id,
    { status: 'initializing', lastError: null, updatedAt: now.toISOString() },
    { expectStatus: statusesAllowing('start') },
  );
  if (claimed.outcome === 'not_found')
    return loadSession(deps.data.sessions, caller, id).then(toSessionResponse);
  if (claimed.outcome === 'conflict') {
    // A session reconnecting after failures says why its connection keeps failing.
    const { status, lastError } = claimed.session;
    const why = lastError ? ` (${status}; last error: ${lastError})` : '';
    throw new SessionStateError(
      'SESSION_ALREADY_STARTED',
      `Session '${session.name}' is already started${why}`,
    );
  }
  try {
    await deps.commands.send(
      { type: 'session.start', sessionId: id, reason: 'requested', requestedAt: now.toISOString() },
      { dedupId: `start:${id}:${now.getTime()}` },
    );
  } catch (error) {
    await deps.data.sessions.update(id, {
      status: session.status,
      updatedAt: deps.clock.now().toISOString(),
    });
    deps.logger.error({ err: error, sessionId: id }, 'start command could not be queued');
    throw new UnavailableError('DEPENDENCY_UNAVAILABLE', 'The command queue is unavailable; retry', {
      cause: error,
    });
  }
  await deps.audit.record(caller, { action: 'session_started', sessionId: id, sessionName: session.name });
  return toSessionResponse(claimed.session);
}

/**
 * Refuses a start when `sessionLimit` sessions run already (400 SESSION_LIMIT_REACHED), so the host never takes
 * more than it can hold. A session that runs already is let through: its start answers SESSION_ALREADY_STARTED.
 * Two starts racing at the limit may both pass; the host refuses the one over it (the session fails, lastError says
 * why).
 */
async function assertRoomForSession(
  deps: Pick<CoreDeps, 'data' | 'sessionLimit'>,
  session: Session,
): Promise<void> {
  if (deps.sessionLimit === 0 || RUNNING_STATUSES.has(session.status)) return;
  const counts = await deps.data.sessions.countByStatus({});
  let running = 0;
  for (const status of RUNNING_STATUSES) running += counts[status] ?? 0;
  if (running >= deps.sessionLimit) {
    throw new SessionStateError('SESSION_LIMIT_REACHED', sessionLimitReason(deps.sessionLimit));
  }
}
