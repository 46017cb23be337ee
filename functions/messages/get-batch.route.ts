import { defineRoute } from '#functions/http/route.js';
import { BatchStatusView } from '#shared/domain/message-batch.js';
import { getBatch } from '#shared/use-cases/messages/message-batches.js';
import { BatchParams } from './params.js';

/** GET /api/sessions/{sessionId}/messages/batch/{batchId}: the batch's status, progress and per-item results. */
export const getBatchRoute = defineRoute({
  method: 'GET',
  path: '/api/sessions/{sessionId}/messages/batch/{batchId}',
  summary: 'Status of a message batch',
  tag: 'Messages',
  auth: { role: 'viewer' },
  params: BatchParams,
  response: BatchStatusView,
  success: 200,
  errors: [404],
  run: ({ deps, caller, params }) => getBatch(deps, caller, params.sessionId, params.batchId),
});
