import { z } from 'zod';
import { defineRoute } from '#functions/http/route.js';
import { AutomationRule } from '#shared/domain/automation-rule.js';
import { listAutomationRules } from '#shared/use-cases/automation/manage-automation-rules.js';
import { RuleSessionParams } from './params.js';

/** GET /api/sessions/{sessionId}/automation-rules: the session's rules in evaluation order (oldest first). */
export const listRulesRoute = defineRoute({
  method: 'GET',
  path: '/api/sessions/{sessionId}/automation-rules',
  summary: 'List the autoreply rules of a session',
  tag: 'Automation',
  auth: { role: 'operator' },
  params: RuleSessionParams,
  response: z.array(AutomationRule),
  success: 200,
  errors: [404],
  run: ({ deps, caller, params }) => listAutomationRules(deps, caller, params.sessionId),
});
