import type { Caller } from '#shared/domain/caller.js';
import { type ChatRecord, type ChatSummary, chatSummaryOf, mostRecentFirst } from '#shared/domain/chat.js';
import { callerChatScope } from '#shared/domain/chat-scope.js';
import type { PageQuery } from '#shared/domain/common.js';
import type { CoreDeps } from '#shared/use-cases/core-deps.js';
import { assertOperationState } from '#shared/use-cases/engine/engine-operation-state.js';
import { requireCapability } from '#shared/use-cases/engine/require-capability.js';
import { loadSession } from '#shared/use-cases/sessions/load-session.js';

/**
 * A page of a session's chats, most recent first (`GET …/chats`), from the chat store its host keeps (fed by the
 * engine's history, app-state and every stored message), so a list of thousands never waits on the engine: 501
 * when the deployment's engine keeps no chat list, 403 outside the caller's scope, 404 unknown session, 400
 * SESSION_NOT_READY unless it is ready (as the chat operations answer: the list is the account's as its engine
 * last saw it). A caller limited to chats sees only those.
 */
export async function listChats(
  deps: Pick<CoreDeps, 'data' | 'engine' | 'clock'>,
  caller: Caller,
  sessionId: string,
  page: PageQuery,
): Promise<ChatSummary[]> {
  requireCapability(deps.engine, 'chats_list');
  // Ready, as the chat operations (rows without states of their own): a session not ready answers as they do.
  assertOperationState({}, await loadSession(deps.data.sessions, caller, sessionId));
  const chats = await chatsOfPage(deps, caller, sessionId, page);
  const now = deps.clock.now().getTime();
  return chats.map((chat) => chatSummaryOf(chat, now));
}

/** The page asked for; for a caller limited to chats, of those chats only (at most 100, each read by its id). */
async function chatsOfPage(
  deps: Pick<CoreDeps, 'data'>,
  caller: Caller,
  sessionId: string,
  page: PageQuery,
): Promise<ChatRecord[]> {
  const scope = callerChatScope(caller);
  if (scope === undefined) return deps.data.chats.list(sessionId, page);
  const found = await Promise.all(scope.map((chatId) => deps.data.chats.findById(sessionId, chatId)));
  return found
    .filter((chat): chat is ChatRecord => chat !== null)
    .sort(mostRecentFirst)
    .slice(page.offset, page.offset + page.limit);
}
