/**
 * Autoreply rule CRUD of one session (spec "Autoreply rules"), through the session-record use cases. Only the API:
 * the host evaluates the rules on inbound messages. A rule is resolved inside the session the path names, so another
 * session's rule id is "not found".
 */
import type { CreateAutomationRuleBody, UpdateAutomationRuleBody } from '#shared/domain/automation-rule.js';
import { NotFoundError } from '#shared/errors/app-error.js';
import { sessionRecords } from '#shared/use-cases/session-records.js';

const rules = sessionRecords<CreateAutomationRuleBody, UpdateAutomationRuleBody>(
  (data) => data.automationRules,
  (id) => new NotFoundError(`Automation rule '${id}' not found`),
);

/**
 * Creates a rule (201), evaluated after the session's older ones: 404 for an unknown session, 400
 * AUTOMATION_RULE_LIMIT when the session holds `maxPerSession` rules already (AUTOMATION_MAX_PER_SESSION; 0 = none).
 */
export const createAutomationRule = rules.create;

/** The session's rules in evaluation order: oldest first, id breaking ties. */
export const listAutomationRules = rules.list;

/** One rule of the session (404 when the session has none of that id). */
export const getAutomationRule = rules.get;

/** Applies a partial update (404 when the session has no such rule); its place in the evaluation order stays. */
export const updateAutomationRule = rules.update;

/** Deletes a rule (204; 404 when the session has none of that id). */
export const deleteAutomationRule = rules.remove;
