import type { Caller } from '#shared/domain/caller.js';
import { type ChatHistory, withoutMedia } from '#shared/domain/chat-history.js';
import type { CoreDeps } from '#shared/use-cases/core-deps.js';
import { listMessages } from './list-messages.js';

export interface ChatHistoryQuery {
  /** 1 to CHAT_HISTORY_MAX_LIMIT (the route's schema holds it there). */
  limit: number;
  /** Whether each message keeps its media descriptors (shared/domain/chat-history.ts names them). */
  includeMedia: boolean;
}

/**
 * The stored history of one chat of a session, newest first, at most `limit` messages, from the gateway's message
 * store (no engine call, so any session state will do). The chat is read under every id that names it, as the
 * message list reads a chat: a phone chat and the LIDs the engine paired with it. One store read: no message store
 * caps a page (SQLite and memory slice, DynamoDB queries page by page until it has `limit` items), so the whole
 * answer is one list call, with the chat's total beside it.
 */
export async function chatHistory(
  deps: Pick<CoreDeps, 'data'>,
  caller: Caller,
  sessionId: string,
  chatId: string,
  query: ChatHistoryQuery,
): Promise<ChatHistory> {
  const { messages, total } = await listMessages(deps, caller, sessionId, {
    chatId,
    limit: query.limit,
    offset: 0,
  });
  return {
    chatId,
    messages: query.includeMedia ? messages : messages.map(withoutMedia),
    total,
    truncated: total > messages.length,
  };
}
