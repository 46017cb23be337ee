import type { Caller } from '#shared/domain/caller.js';
import { callerChatScope } from '#shared/domain/chat-scope.js';
import type { MessageView } from '#shared/domain/message.js';
import type { CoreDeps } from '#shared/use-cases/core-deps.js';
import { loadSession } from '#shared/use-cases/sessions/load-session.js';
import { messageViews } from './message-views.js';

export interface MessageHistoryQuery {
  chatId?: string | undefined;
  /** A chat id, or bare phone digits (matched as `<digits>@c.us`, also as the author of group messages). */
  from?: string | undefined;
  limit: number;
  offset: number;
}

/**
 * Stored message history of a session, newest first, with the unpaginated total. A chat or sender is matched under
 * every id that names the same person: a phone and the LIDs the engine paired with it (IdentityStore), so a message
 * stored under a contact's LID is found by its phone number and back; each message carries its sender by both ids.
 */
export async function listMessages(
  deps: Pick<CoreDeps, 'data'>,
  caller: Caller,
  sessionId: string,
  query: MessageHistoryQuery,
): Promise<{ messages: MessageView[]; total: number }> {
  await loadSession(deps.data.sessions, caller, sessionId);
  const from = query.from && /^[0-9]+$/.test(query.from) ? `${query.from}@c.us` : query.from;
  // A caller limited to chats lists those (a chatId outside them was refused by the stack).
  const scope = callerChatScope(caller);
  const withAliases = async (id: string) => [id, ...(await deps.data.identities.aliasesOf(sessionId, id))];
  const page = await deps.data.messages.list(
    {
      sessionId,
      ...(query.chatId
        ? { chatId: await withAliases(query.chatId) }
        : scope === undefined
          ? {}
          : { chatId: scope }),
      ...(from ? { from: await withAliases(from) } : {}),
    },
    { limit: query.limit, offset: query.offset },
  );
  return { ...page, messages: await messageViews(deps.data.identities, sessionId, page.messages) };
}
