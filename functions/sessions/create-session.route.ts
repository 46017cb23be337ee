import { defineRoute } from '#functions/http/route.js';
import { CreateSessionBody, SessionResponse } from '#shared/domain/session.js';
import { createSession } from '#shared/use-cases/sessions/create-session.js';

/** POST /api/sessions: create a session (201; 409 SESSION_NAME_EXISTS). */
export const createSessionRoute = defineRoute({
  method: 'POST',
  path: '/api/sessions',
  summary: 'Create a session',
  tag: 'Sessions',
  auth: { role: 'operator', unscoped: true },
  body: CreateSessionBody,
  response: SessionResponse,
  success: 201,
  errors: [409],
  run: ({ deps, caller, body }) => createSession(deps, caller, body),
});
