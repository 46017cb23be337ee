import { z } from 'zod';
import { defineRoute } from '#functions/http/route.js';
import { ChatSummary } from '#shared/domain/chat.js';
import { PageQuery } from '#shared/domain/common.js';
import { listChats } from '#shared/use-cases/chats/list-chats.js';

/** GET /api/sessions/{sessionId}/chats: the session's chats, most recent first, paged. */
export const listChatsRoute = defineRoute({
  method: 'GET',
  path: '/api/sessions/{sessionId}/chats',
  summary: 'List chats, most recent first',
  tag: 'Chats',
  auth: { role: 'viewer' },
  chats: { lists: true },
  params: z.strictObject({ sessionId: z.uuid() }),
  query: PageQuery,
  response: z.array(ChatSummary),
  success: 200,
  errors: [400, 404],
  capability: 'chats_list',
  run: ({ deps, caller, params, query }) => listChats(deps, caller, params.sessionId, query),
});
