import { z } from 'zod';
import { defineRoute } from '#functions/http/route.js';
import {
  CHAT_HISTORY_DEFAULT_LIMIT,
  CHAT_HISTORY_MAX_LIMIT,
  ChatHistory,
} from '#shared/domain/chat-history.js';
import { chatHistory } from '#shared/use-cases/messages/chat-history.js';
import { ChatParams } from './params.js';

const ChatHistoryQuery = z.strictObject({
  limit: z.coerce
    .number()
    .int()
    .min(1)
    .max(CHAT_HISTORY_MAX_LIMIT)
    .default(CHAT_HISTORY_DEFAULT_LIMIT)
    .describe(`At most this many messages, the newest (default ${CHAT_HISTORY_DEFAULT_LIMIT}).`),
  includeMedia: z
    .enum(['true', 'false'])
    .default('false')
    .describe(
      'true: each message as the message list answers it, media descriptors included (mediaPath, ' +
        'mediaMimetype, metadata.media); false (default): without them.',
    )
    .transform((value) => value === 'true'),
});

/**
 * GET /api/sessions/{sessionId}/messages/{chatId}/history: the stored messages of one chat, newest first, up to
 * `limit` (1–2000, default 100), `{chatId, messages, total, truncated}`. `includeMedia=false` (the default) leaves
 * each message's media descriptors out (`mediaPath`, `mediaMimetype`, `metadata.media`), for a reader that wants
 * the conversation and not its files; the message's `type` and caption stay. The literal `batch` segment of
 * `…/messages/batch/{batchId}` wins over `{chatId}` (route-table.ts), and no chat id is `batch`.
 */
export const chatHistoryRoute = defineRoute({
  method: 'GET',
  path: '/api/sessions/{sessionId}/messages/{chatId}/history',
  summary: 'History of one chat',
  tag: 'Messages',
  auth: { role: 'viewer' },
  chats: { addresses: ['chatId'] },
  params: ChatParams,
  query: ChatHistoryQuery,
  response: ChatHistory,
  success: 200,
  errors: [404],
  run: ({ deps, caller, params, query }) => chatHistory(deps, caller, params.sessionId, params.chatId, query),
});
