import type { Caller } from '#shared/domain/caller.js';
import { callerChatScope } from '#shared/domain/chat-scope.js';
import type { MessageView } from '#shared/domain/message.js';
import { parseSearchQuery, SEARCH_MAX_MATCHES } from '#shared/domain/message-search.js';
import { ForbiddenError, ValidationError } from '#shared/errors/app-error.js';
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
 * sender by both ids. A caller limited to chats searches one of them (the stack refused any other chatId).
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
  const chatId = query.chatId ?? searchedChatOf(caller);
  const page = await deps.data.messages.search(
    { sessionId, ...(chatId ? { chatId } : {}), terms, maxMatches: SEARCH_MAX_MATCHES },
    { limit: query.limit, offset: query.offset },
  );
  return { ...page, messages: await messageViews(deps.data.identities, sessionId, page.messages) };
}

/**
 * The chat a search without `chatId` is confined to: none for a caller that may see every chat, the one chat a
 * caller is limited to; a caller limited to several must name one (a search reads one chat's index or the whole
 * session's, never a set of chats), 403 FORBIDDEN_CHAT otherwise.
 */
function searchedChatOf(caller: Caller): string | undefined {
  const scope = callerChatScope(caller);
  if (scope === undefined) return undefined;
  if (scope.length === 1) return scope[0];
  throw new ForbiddenError(
    'FORBIDDEN_CHAT',
    'API key is restricted to selected chats: name one of them in chatId to search it',
  );
}
