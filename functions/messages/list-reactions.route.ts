import { z } from 'zod';
import { defineRoute } from '#functions/http/route.js';
import { listReactions, ReactionGroup } from '#shared/use-cases/messages/list-reactions.js';
import { ChatMessageParams } from './params.js';

/** GET …/messages/{chatId}/{messageId}/reactions: the message's reactions, grouped by emoji. */
export const listReactionsRoute = defineRoute({
  method: 'GET',
  path: '/api/sessions/{sessionId}/messages/{chatId}/{messageId}/reactions',
  summary: 'Reactions to a message',
  tag: 'Messages',
  auth: { role: 'viewer' },
  chats: { addresses: ['chatId'] },
  params: ChatMessageParams,
  response: z.array(ReactionGroup),
  success: 200,
  errors: [404],
  run: ({ deps, caller, params }) =>
    listReactions(deps, caller, params.sessionId, params.chatId, params.messageId),
});
