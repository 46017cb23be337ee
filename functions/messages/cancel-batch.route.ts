import { defineRoute } from '#functions/http/route.js';
import { BatchCancelView } from '#shared/domain/message-batch.js';
import { cancelBatch } from '#shared/use-cases/messages/message-batches.js';
import { BatchParams } from './params.js';

/**
 * POST /api/sessions/{sessionId}/messages/batch/{batchId}/cancel: ends a pending or processing batch, its unsent
 * items cancelled (200; 400 BATCH_FINISHED once it completed, failed or was cancelled).
 */
export const cancelBatchRoute = defineRoute({
  method: 'POST',
  path: '/api/sessions/{sessionId}/messages/batch/{batchId}/cancel',
  summary: 'Cancel a message batch',
  tag: 'Messages',
  auth: { role: 'operator' },
  params: BatchParams,
  response: BatchCancelView,
  success: 200,
  errors: [404],
  run: ({ deps, caller, params }) => cancelBatch(deps, caller, params.sessionId, params.batchId),
});
