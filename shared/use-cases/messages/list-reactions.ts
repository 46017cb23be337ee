/**
 * The reactions of one stored message (openwa-facts §1.2 `…/:chatId/:messageId/reactions`): one group per emoji,
 * with each sender's reaction and when it was made, most reacted first.
 */
import { z } from 'zod';
import type { Caller } from '#shared/domain/caller.js';
import { reactionsOf } from '#shared/domain/message-changes.js';
import type { CoreDeps } from '#shared/use-cases/core-deps.js';
import { loadSession } from '#shared/use-cases/sessions/load-session.js';
import { findChatMessage } from './find-chat-message.js';

export const ReactionGroup = z
  .object({
    emoji: z.string(),
    senders: z.array(z.object({ senderId: z.string(), emoji: z.string(), timestamp: z.number().int() })),
  })
  .meta({ id: 'ReactionGroup' });
export type ReactionGroup = z.infer<typeof ReactionGroup>;

/** 404 for an unknown session, or a message (network id or stored id) the chat does not have. */
export async function listReactions(
  deps: Pick<CoreDeps, 'data'>,
  caller: Caller,
  sessionId: string,
  chatId: string,
  messageId: string,
): Promise<ReactionGroup[]> {
  await loadSession(deps.data.sessions, caller, sessionId);
  const message = await findChatMessage(deps.data.messages, sessionId, chatId, messageId);
  const groups = new Map<string, ReactionGroup>();
  for (const [senderId, { emoji, timestamp }] of Object.entries(reactionsOf(message))) {
    const group = groups.get(emoji) ?? { emoji, senders: [] };
    group.senders.push({ senderId, emoji, timestamp: Math.floor(timestamp) });
    groups.set(emoji, group);
  }
  return [...groups.values()].sort(
    (a, b) => b.senders.length - a.senders.length || (a.emoji < b.emoji ? -1 : 1),
  );
}
