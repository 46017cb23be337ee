import type { Caller } from '#shared/domain/caller.js';
import { type SessionResponse, toSessionResponse } from '#shared/domain/session.js';
import type { CoreDeps } from '#shared/use-cases/core-deps.js';
import { loadSession } from './load-session.js';

/** One session by id (never by name). */
export async function getSession(
  deps: Pick<CoreDeps, 'data'>,
  caller: Caller,
  id: string,
): Promise<SessionResponse> {
  return toSessionResponse(await loadSession(deps.data.sessions, caller, id));
}
