import { type Caller, callerMaySeeSession } from '#shared/domain/caller.js';
import type { Session } from '#shared/domain/session.js';
import { ForbiddenError, NotFoundError } from '#shared/errors/app-error.js';
import type { SessionStore } from '#shared/ports/session-store.port.js';

/** The session the caller names, or 404; a session outside the caller's scope is 403 (checked before the read). */
export async function loadSession(sessions: SessionStore, caller: Caller, id: string): Promise<Session> {
  if (!callerMaySeeSession(caller, id)) {
    throw new ForbiddenError('FORBIDDEN_SESSION', 'API key not authorized for this session');
  }
  const session = await sessions.findById(id);
  if (!session) throw new NotFoundError(`Session '${id}' not found`);
  return session;
}
