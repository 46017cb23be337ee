import type { Caller } from '#shared/domain/caller.js';
import type { MessageView } from '#shared/domain/message.js';
import { parseSearchQuery, SEARCH_MAX_MATCHES } from '#shared/domain/message-search.js';
import { ValidationError } from '#shared/errors/app-error.js';
import type { MessageSearchPage } from '#shared/ports/message-store.port.js';
import type { CoreDeps } from '#shared/use-cases/core-deps.js';
import { loadSession } from '#shared/use-cases/sessions/load-session.js';
import { messageViews } from './message-views.js';

export interface MessageSearchQuery {
  /** The query text (shared/domain/message-search.ts says what matches). */
  q: string;
  chatId?: string | undefined;
  limit: number;
  offset: number;
}

/**
 * Stored messages of a session whose body matches `q`, newest first, counted up to SEARCH_MAX_MATCHES; `truncated`
 * says the search stopped before the end (more matches, or the DynamoDB read budget). Each message carries its
 * sender by both ids.
 */
export async function searchMessages(
  deps: Pick<CoreDeps, 'data'>,
  caller: Caller,
  sessionId: string,
  query: MessageSearchQuery,
): Promise<Omit<MessageSearchPage, 'messages'> & { messages: MessageView[] }> {
  await loadSession(deps.data.sessions, caller, sessionId);
  const terms = parseSearchQuery(query.q);
  // The route's schema refuses such a query already; a caller that skipped it gets the same answer.
  if (terms.length === 0) throw new ValidationError('q must contain at least one letter or digit');
  const page = await deps.data.messages.search(
    { sessionId, ...(query.chatId ? { chatId: query.chatId } : {}), terms, maxMatches: SEARCH_MAX_MATCHES },
    { limit: query.limit, offset: query.offset },
  );
  return { ...page, messages: await messageViews(deps.data.identities, sessionId, page.messages) };
}
