import { defineRoute } from '#functions/http/route.js';
import { AutomationRule, CreateAutomationRuleBody } from '#shared/domain/automation-rule.js';
import { createAutomationRule } from '#shared/use-cases/automation/manage-automation-rules.js';
import { RuleSessionParams } from './params.js';

/** POST /api/sessions/{sessionId}/automation-rules: create an autoreply rule (201; 400 AUTOMATION_RULE_LIMIT). */
export const createRuleRoute = defineRoute({
  method: 'POST',
  path: '/api/sessions/{sessionId}/automation-rules',
  summary: 'Create an autoreply rule',
  tag: 'Automation',
  auth: { role: 'operator' },
  params: RuleSessionParams,
  body: CreateAutomationRuleBody,
  response: AutomationRule,
  success: 201,
  errors: [404],
  run: ({ deps, caller, params, body }) =>
    createAutomationRule(deps, deps.env.AUTOMATION_MAX_PER_SESSION, caller, params.sessionId, body),
});
