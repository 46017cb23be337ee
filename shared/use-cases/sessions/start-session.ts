import type { Caller } from '#shared/domain/caller.js';
import { type SessionResponse, toSessionResponse } from '#shared/domain/session.js';
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
  deps: Pick<CoreDeps, 'data' | 'commands' | 'audit' | 'clock' | 'logger'>,
  caller: Caller,
  id: string,
): Promise<SessionResponse> {
  const session = await loadSession(deps.data.sessions, caller, id);
  await assertNoTeardownPending(deps.data.fences, deps.clock, session.name);
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
