import { defineRoute } from '#functions/http/route.js';
import { CreateTemplateBody, Template } from '#shared/domain/template.js';
import { createTemplate } from '#shared/use-cases/templates/manage-templates.js';
import { TemplateSessionParams } from './params.js';

/** POST /api/sessions/{sessionId}/templates: create a template (201; 409 TEMPLATE_NAME_TAKEN; 400 TEMPLATE_LIMIT). */
export const createTemplateRoute = defineRoute({
  method: 'POST',
  path: '/api/sessions/{sessionId}/templates',
  summary: 'Create a message template',
  tag: 'Templates',
  auth: { role: 'operator' },
  params: TemplateSessionParams,
  body: CreateTemplateBody,
  response: Template,
  success: 201,
  errors: [404, 409],
  run: ({ deps, caller, params, body }) =>
    createTemplate(deps, deps.env.TEMPLATE_MAX_PER_SESSION, caller, params.sessionId, body),
});
