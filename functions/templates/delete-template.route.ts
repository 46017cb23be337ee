import { defineRoute } from '#functions/http/route.js';
import { deleteTemplate } from '#shared/use-cases/templates/manage-templates.js';
import { TemplateParams } from './params.js';

/** DELETE /api/sessions/{sessionId}/templates/{templateId}: remove a template (204). */
export const deleteTemplateRoute = defineRoute({
  method: 'DELETE',
  path: '/api/sessions/{sessionId}/templates/{templateId}',
  summary: 'Delete a message template',
  tag: 'Templates',
  auth: { role: 'operator' },
  params: TemplateParams,
  success: 204,
  errors: [404],
  run: ({ deps, caller, params }) => deleteTemplate(deps, caller, params.sessionId, params.templateId),
});
