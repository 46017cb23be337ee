/** The routes of the automation resource group (its Lambda), in the order the router tries them. */
import type { AnyRoute } from '#functions/http/route.js';
import { createRuleRoute } from './create-rule.route.js';
import { deleteRuleRoute } from './delete-rule.route.js';
import { getRuleRoute } from './get-rule.route.js';
import { listRulesRoute } from './list-rules.route.js';
import { updateRuleRoute } from './update-rule.route.js';

export const automationRoutes: readonly AnyRoute[] = [
  createRuleRoute,
  listRulesRoute,
  getRuleRoute,
  updateRuleRoute,
  deleteRuleRoute,
];
