/**
 * Chat allowlists of API keys (issue 38, item 5; OpenWA's newer `allowedChats`): a key may be limited to given chats.
 * On REST and MCP alike a route declares how it meets such a key (functions/http/route.ts, `chats`): the chats its
 * input addresses must all be in the list (else 403 FORBIDDEN_CHAT), a list it answers is filtered to the list, and a
 * route that declares neither (key management, webhooks, session lifecycle…) refuses the key (403
 * FORBIDDEN_CHAT_RESTRICTED). The comparison is on the neutral ids the API uses: a bare phone number in a list is
 * stored as `<number>@c.us`, and `<id>@lid` is only the chat of that LID (list both ids of a person to allow both).
 */
import { z } from 'zod';
import type { Caller } from './caller.js';
import { ChatId } from './message.js';
import { BARE_PHONE, chatIdOf } from './wa-ids.js';

export const MAX_ALLOWED_CHATS = 100;

/** One entry of a chat allowlist, as a client may write it. */
const AllowedChat = z
  .string()
  .max(128)
  .refine(
    (value) => BARE_PHONE.test(value) || ChatId.safeParse(value).success,
    'must be <number>@c.us, <id>@lid, <group id>@g.us or a bare phone number',
  )
  .meta({
    description:
      'A chat: `<number>@c.us`, `<id>@lid`, `<group id>@g.us`, or a bare phone number (stored as <number>@c.us).',
  });

/** A key's chat allowlist in a request body: 1–100 chats (empty clears it), none repeated once normalized. */
export const ChatIdList = z
  .array(AllowedChat)
  .max(MAX_ALLOWED_CHATS)
  .transform((list) => list.map(chatIdOf))
  .refine((list) => new Set(list).size === list.length, 'must not repeat a chat')
  .meta({
    uniqueItems: true,
    description:
      'Limits the key to these chats: every chat-addressed operation on another chat is refused (403), lists are ' +
      'filtered to them, and routes that address no chat (key management, webhooks, session lifecycle) refuse the ' +
      'key. An empty list (or null on update) removes the limit.',
  });

/** The chats a caller is limited to, or undefined when it may address every chat. */
export function callerChatScope(caller: Caller): readonly string[] | undefined {
  const allowed = caller.key?.allowedChats;
  return allowed && allowed.length > 0 ? allowed : undefined;
}

/** True when `chatId` is one the caller may address (any chat, for an unlimited caller). */
export function callerMayAddressChat(caller: Caller, chatId: string): boolean {
  const scope = callerChatScope(caller);
  return scope === undefined || scope.includes(chatIdOf(chatId));
}

/** `items` without those whose chat the caller may not see (all of them for an unlimited caller). */
export function filterToCallerChats<T>(
  caller: Caller,
  items: readonly T[],
  chatOf: (item: T) => string,
): T[] {
  const scope = callerChatScope(caller);
  if (scope === undefined) return [...items];
  return items.filter((item) => scope.includes(chatIdOf(chatOf(item))));
}
