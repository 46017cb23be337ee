import { defineRoute } from '#functions/http/route.js';
import { Template } from '#shared/domain/template.js';
import { getTemplate } from '#shared/use-cases/templates/manage-templates.js';
import { TemplateParams } from './params.js';

/** GET /api/sessions/{sessionId}/templates/{templateId}: one template (404 when not in this session). */
export const getTemplateRoute = defineRoute({
  method: 'GET',
  path: '/api/sessions/{sessionId}/templates/{templateId}',
  summary: 'Get a message template',
  tag: 'Templates',
  auth: { role: 'operator' },
  params: TemplateParams,
  response: Template,
  success: 200,
  errors: [404],
  run: ({ deps, caller, params }) => getTemplate(deps, caller, params.sessionId, params.templateId),
});
