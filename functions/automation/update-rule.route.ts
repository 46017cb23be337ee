import { defineRoute } from '#functions/http/route.js';
import { AutomationRule, UpdateAutomationRuleBody } from '#shared/domain/automation-rule.js';
import { updateAutomationRule } from '#shared/use-cases/automation/manage-automation-rules.js';
import { RuleParams } from './params.js';

/** PUT /api/sessions/{sessionId}/automation-rules/{ruleId}: partial update. */
export const updateRuleRoute = defineRoute({
  method: 'PUT',
  path: '/api/sessions/{sessionId}/automation-rules/{ruleId}',
  summary: 'Update an autoreply rule',
  tag: 'Automation',
  auth: { role: 'operator' },
  params: RuleParams,
  body: UpdateAutomationRuleBody,
  response: AutomationRule,
  success: 200,
  errors: [404],
  run: ({ deps, caller, params, body }) =>
    updateAutomationRule(deps, caller, params.sessionId, params.ruleId, body),
});
