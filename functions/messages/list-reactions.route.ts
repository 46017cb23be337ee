import { z } from 'zod';
import { defineRoute } from '#functions/http/route.js';
import { ChatId } from '#shared/domain/message.js';
import { MessageIdField } from '#shared/domain/send-requests.js';
import { listReactions, ReactionGroup } from '#shared/use-cases/messages/list-reactions.js';

const ReactionParams = z.strictObject({
  sessionId: z.uuid({ message: 'must be a session id (uuid)' }),
  chatId: ChatId,
  messageId: MessageIdField,
});

/** GET …/messages/{chatId}/{messageId}/reactions: the message's reactions, grouped by emoji. */
export const listReactionsRoute = defineRoute({
  method: 'GET',
  path: '/api/sessions/{sessionId}/messages/{chatId}/{messageId}/reactions',
  summary: 'Reactions to a message',
  tag: 'Messages',
  auth: { role: 'viewer' },
  params: ReactionParams,
  response: z.array(ReactionGroup),
  success: 200,
  errors: [404],
  run: ({ deps, caller, params }) =>
    listReactions(deps, caller, params.sessionId, params.chatId, params.messageId),
});
