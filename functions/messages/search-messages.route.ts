import { z } from 'zod';
import { defineRoute } from '#functions/http/route.js';
import { MessageView } from '#shared/domain/message.js';
import { SearchQueryText } from '#shared/domain/message-search.js';
import { searchMessages } from '#shared/use-cases/messages/search-messages.js';
import { MessageSessionParams } from './params.js';

const SearchQuery = z.strictObject({
  q: SearchQueryText,
  chatId: z.string().min(1).max(128).optional(),
  limit: z.coerce.number().int().min(1).max(1000).default(50),
  offset: z.coerce.number().int().min(0).default(0),
});

/**
 * GET /api/sessions/{sessionId}/messages/search: stored messages whose body holds every word of `q` (whole words,
 * case and Latin accents ignored), newest first, `{messages, total, truncated}`; matches are counted up to 1,000.
 */
export const searchMessagesRoute = defineRoute({
  method: 'GET',
  path: '/api/sessions/{sessionId}/messages/search',
  summary: 'Search stored messages',
  tag: 'Messages',
  auth: { role: 'viewer' },
  chats: { addresses: ['chatId'], lists: true },
  params: MessageSessionParams,
  query: SearchQuery,
  response: z
    .object({ messages: z.array(MessageView), total: z.number().int(), truncated: z.boolean() })
    .meta({ id: 'MessageSearchPage' }),
  success: 200,
  errors: [400, 404],
  run: ({ deps, caller, params, query }) => searchMessages(deps, caller, params.sessionId, query),
});
