import { defineRoute } from '#functions/http/route.js';
import { BulkAccepted, SendBulkBody } from '#shared/domain/message-batch.js';
import { sendBulk } from '#shared/use-cases/messages/send-bulk.js';
import { MessageSessionParams } from './params.js';

/**
 * POST /api/sessions/{sessionId}/messages/send-bulk: stores and queues a batch of up to 100 texts, sent one by one
 * by the host (202 with its status URL; 400 SESSION_NOT_READY, BATCH_ID_TAKEN, an item that does not render; 429
 * BATCH_LIMIT).
 */
export const sendBulkRoute = defineRoute({
  method: 'POST',
  path: '/api/sessions/{sessionId}/messages/send-bulk',
  summary: 'Send a batch of messages',
  tag: 'Messages',
  auth: { role: 'operator' },
  params: MessageSessionParams,
  body: SendBulkBody,
  response: BulkAccepted,
  success: 202,
  errors: [404, 429],
  run: ({ deps, caller, params, body }) =>
    sendBulk(deps, caller, params.sessionId, body, deps.env.BULK_MAX_CONCURRENT_BATCHES),
});
