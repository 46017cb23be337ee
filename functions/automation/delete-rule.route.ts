import { defineRoute } from '#functions/http/route.js';
import { deleteAutomationRule } from '#shared/use-cases/automation/manage-automation-rules.js';
import { RuleParams } from './params.js';

/** DELETE /api/sessions/{sessionId}/automation-rules/{ruleId}: remove a rule (204). */
export const deleteRuleRoute = defineRoute({
  method: 'DELETE',
  path: '/api/sessions/{sessionId}/automation-rules/{ruleId}',
  summary: 'Delete an autoreply rule',
  tag: 'Automation',
  auth: { role: 'operator' },
  params: RuleParams,
  success: 204,
  errors: [404],
  run: ({ deps, caller, params }) => deleteAutomationRule(deps, caller, params.sessionId, params.ruleId),
});
