import { defineRoute } from '#functions/http/route.js';
import { StatusDeleted } from '#shared/domain/status-requests.js';
import { deleteStatus } from '#shared/use-cases/statuses/post-status.js';
import { StatusParams } from './params.js';

/** DELETE …/status/{statusId}: deletes the account's own status for everyone it went to. */
export const deleteStatusRoute = defineRoute({
  method: 'DELETE',
  path: '/api/sessions/{sessionId}/status/{statusId}',
  summary: 'Delete a status update for everyone',
  tag: 'Status',
  auth: { role: 'operator' },
  params: StatusParams,
  response: StatusDeleted,
  success: 200,
  errors: [404, 409],
  capability: 'status_post',
  run: ({ deps, caller, params }) => deleteStatus(deps, caller, params.sessionId, params.statusId),
});
