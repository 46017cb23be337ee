import { z } from 'zod';
import { defineRoute } from '#functions/http/route.js';
import { Template } from '#shared/domain/template.js';
import { listTemplates } from '#shared/use-cases/templates/manage-templates.js';
import { TemplateSessionParams } from './params.js';

/** GET /api/sessions/{sessionId}/templates: the session's templates, newest first. */
export const listTemplatesRoute = defineRoute({
  method: 'GET',
  path: '/api/sessions/{sessionId}/templates',
  summary: 'List the message templates of a session',
  tag: 'Templates',
  auth: { role: 'operator' },
  params: TemplateSessionParams,
  response: z.array(Template),
  success: 200,
  errors: [404],
  run: ({ deps, caller, params }) => listTemplates(deps, caller, params.sessionId),
});
