import { defineRoute } from '#functions/http/route.js';
import { AutomationRule } from '#shared/domain/automation-rule.js';
import { getAutomationRule } from '#shared/use-cases/automation/manage-automation-rules.js';
import { RuleParams } from './params.js';

/** GET /api/sessions/{sessionId}/automation-rules/{ruleId}: one rule (404 when not in this session). */
export const getRuleRoute = defineRoute({
  method: 'GET',
  path: '/api/sessions/{sessionId}/automation-rules/{ruleId}',
  summary: 'Get an autoreply rule',
  tag: 'Automation',
  auth: { role: 'operator' },
  params: RuleParams,
  response: AutomationRule,
  success: 200,
  errors: [404],
  run: ({ deps, caller, params }) => getAutomationRule(deps, caller, params.sessionId, params.ruleId),
});
