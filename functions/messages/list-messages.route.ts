import { z } from 'zod';
import { defineRoute } from '#functions/http/route.js';
import { MessageView } from '#shared/domain/message.js';
import { listMessages } from '#shared/use-cases/messages/list-messages.js';
import { MessageSessionParams } from './params.js';

const HistoryQuery = z.strictObject({
  chatId: z.string().min(1).max(128).optional(),
  from: z.string().min(1).max(128).optional(),
  limit: z.coerce.number().int().min(1).max(1000).default(50),
  offset: z.coerce.number().int().min(0).default(0),
});

/** GET /api/sessions/{sessionId}/messages: stored history `{messages, total}`, newest first. */
export const listMessagesRoute = defineRoute({
  method: 'GET',
  path: '/api/sessions/{sessionId}/messages',
  summary: 'Message history',
  tag: 'Messages',
  auth: { role: 'viewer' },
  chats: { addresses: ['chatId'], lists: true },
  params: MessageSessionParams,
  query: HistoryQuery,
  response: z.object({ messages: z.array(MessageView), total: z.number().int() }).meta({ id: 'MessagePage' }),
  success: 200,
  errors: [404],
  run: ({ deps, caller, params, query }) => listMessages(deps, caller, params.sessionId, query),
});
