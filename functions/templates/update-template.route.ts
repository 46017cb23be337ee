import { defineRoute } from '#functions/http/route.js';
import { Template, UpdateTemplateBody } from '#shared/domain/template.js';
import { updateTemplate } from '#shared/use-cases/templates/manage-templates.js';
import { TemplateParams } from './params.js';

/** PUT /api/sessions/{sessionId}/templates/{templateId}: partial update (409 when the new name is taken). */
export const updateTemplateRoute = defineRoute({
  method: 'PUT',
  path: '/api/sessions/{sessionId}/templates/{templateId}',
  summary: 'Update a message template',
  tag: 'Templates',
  auth: { role: 'operator' },
  params: TemplateParams,
  body: UpdateTemplateBody,
  response: Template,
  success: 200,
  errors: [404, 409],
  run: ({ deps, caller, params, body }) =>
    updateTemplate(deps, caller, params.sessionId, params.templateId, body),
});
