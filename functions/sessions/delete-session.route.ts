import { defineRoute } from '#functions/http/route.js';
import { deleteSession } from '#shared/use-cases/sessions/delete-session.js';
import { SessionIdParams } from './params.js';

/** DELETE /api/sessions/{id}: stop, wipe credentials, remove (204; 409 teardown pending). */
export const deleteSessionRoute = defineRoute({
  method: 'DELETE',
  path: '/api/sessions/{id}',
  summary: 'Delete a session',
  tag: 'Sessions',
  auth: { role: 'operator' },
  params: SessionIdParams,
  success: 204,
  errors: [404, 409],
  run: ({ deps, caller, params }) => deleteSession(deps, caller, params.id),
});
