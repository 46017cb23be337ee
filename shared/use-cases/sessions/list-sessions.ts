import { type Caller, callerSessionScope } from '#shared/domain/caller.js';
import type { Page } from '#shared/domain/common.js';
import { type SessionResponse, toSessionResponse } from '#shared/domain/session.js';
import type { CoreDeps } from '#shared/use-cases/core-deps.js';

/** Sessions newest first, filtered to the caller's allowed sessions and optionally to one exact name. */
export async function listSessions(
  deps: Pick<CoreDeps, 'data'>,
  caller: Caller,
  query: Page & { name?: string | undefined },
): Promise<SessionResponse[]> {
  const scope = callerSessionScope(caller);
  const sessions = await deps.data.sessions.list(
    { ...(scope ? { ids: scope } : {}), ...(query.name === undefined ? {} : { name: query.name }) },
    { limit: query.limit, offset: query.offset },
  );
  return sessions.map(toSessionResponse);
}
