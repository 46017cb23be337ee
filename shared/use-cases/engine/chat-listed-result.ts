import type { Caller } from '#shared/domain/caller.js';
import { callerChatScope, filterToCallerChats } from '#shared/domain/chat-scope.js';
import type { Page } from '#shared/domain/common.js';
import type { EngineOperationRow } from '#shared/domain/engine-operations/engine-operation.js';

/** The page size in which a list is read whole for a caller limited to chats (PageQuery's largest). */
const WHOLE_LIST_PAGE = 1000;

const isPage = (input: unknown): input is Page =>
  typeof input === 'object' &&
  input !== null &&
  typeof (input as Page).limit === 'number' &&
  typeof (input as Page).offset === 'number';

/**
 * The answer of a row whose result lists chats (`chats.listed`) for `caller`: as the engine gives it to a caller
 * that may see every chat; else only the items of the caller's chats. A paged list is then read whole, page by page
 * from the start, and the caller's page cut from what remains, so its pages neither skip nor repeat an allowed chat
 * however the others fall between the engine's pages.
 */
export async function chatListedResult(
  row: EngineOperationRow,
  caller: Caller,
  input: unknown,
  fetch: (input: unknown) => Promise<unknown>,
): Promise<unknown> {
  const chats = row.chats;
  if (typeof chats !== 'object' || !('listed' in chats) || callerChatScope(caller) === undefined)
    return fetch(input);
  const chatOf = chats.listed as (item: unknown) => string;
  if (!isPage(input)) return filterToCallerChats(caller, (await fetch(input)) as unknown[], chatOf);
  const kept: unknown[] = [];
  for (let offset = 0; ; offset += WHOLE_LIST_PAGE) {
    const page = (await fetch({ ...input, limit: WHOLE_LIST_PAGE, offset })) as unknown[];
    kept.push(...filterToCallerChats(caller, page, chatOf));
    if (page.length < WHOLE_LIST_PAGE) break;
  }
  return kept.slice(input.offset, input.offset + input.limit);
}
