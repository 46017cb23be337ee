import type { Caller } from '#shared/domain/caller.js';
import { type ChatSummary, chatSummaryOf } from '#shared/domain/chat.js';
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
 * last saw it).
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
  const chats = await deps.data.chats.list(sessionId, page);
  const now = deps.clock.now().getTime();
  return chats.map((chat) => chatSummaryOf(chat, now));
}
