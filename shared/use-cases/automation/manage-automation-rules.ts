/**
 * Autoreply rule CRUD of one session (spec "Autoreply rules"). Only the API: the host evaluates the rules on inbound
 * messages. A rule is resolved inside the session the path names, so another session's rule id is "not found".
 */
import { randomUUID } from 'node:crypto';
import type {
  AutomationRule,
  CreateAutomationRuleBody,
  UpdateAutomationRuleBody,
} from '#shared/domain/automation-rule.js';
import type { Caller } from '#shared/domain/caller.js';
import { NotFoundError } from '#shared/errors/app-error.js';
import type { AutomationRuleStore } from '#shared/ports/automation-rule-store.port.js';
import type { CoreDeps } from '#shared/use-cases/core-deps.js';
import { loadSession } from '#shared/use-cases/sessions/load-session.js';

type RuleDeps = Pick<CoreDeps, 'data' | 'clock'>;

const ruleNotFound = (id: string) => new NotFoundError(`Automation rule '${id}' not found`);

async function loadRule(rules: AutomationRuleStore, sessionId: string, id: string): Promise<AutomationRule> {
  const rule = await rules.findById(sessionId, id);
  if (!rule) throw ruleNotFound(id);
  return rule;
}

/**
 * Creates a rule (201), evaluated after the session's older ones: 404 for an unknown session, 400
 * AUTOMATION_RULE_LIMIT when the session holds `maxPerSession` rules already (AUTOMATION_MAX_PER_SESSION; 0 = none).
 */
export async function createAutomationRule(
  deps: RuleDeps,
  maxPerSession: number,
  caller: Caller,
  sessionId: string,
  body: CreateAutomationRuleBody,
): Promise<AutomationRule> {
  await loadSession(deps.data.sessions, caller, sessionId);
  const now = deps.clock.now().toISOString();
  const rule: AutomationRule = { id: randomUUID(), sessionId, ...body, createdAt: now, updatedAt: now };
  await deps.data.automationRules.create(rule, { maxPerSession });
  return rule;
}

/** The session's rules in evaluation order: oldest first, id breaking ties. */
export async function listAutomationRules(
  deps: Pick<CoreDeps, 'data'>,
  caller: Caller,
  sessionId: string,
): Promise<AutomationRule[]> {
  await loadSession(deps.data.sessions, caller, sessionId);
  return deps.data.automationRules.listBySession(sessionId);
}

/** One rule of the session (404 when the session has none of that id). */
export async function getAutomationRule(
  deps: Pick<CoreDeps, 'data'>,
  caller: Caller,
  sessionId: string,
  id: string,
): Promise<AutomationRule> {
  await loadSession(deps.data.sessions, caller, sessionId);
  return loadRule(deps.data.automationRules, sessionId, id);
}

/** Applies a partial update (404 when the session has no such rule); its place in the evaluation order stays. */
export async function updateAutomationRule(
  deps: RuleDeps,
  caller: Caller,
  sessionId: string,
  id: string,
  body: UpdateAutomationRuleBody,
): Promise<AutomationRule> {
  await loadSession(deps.data.sessions, caller, sessionId);
  const updated = await deps.data.automationRules.update(sessionId, id, {
    ...body,
    updatedAt: deps.clock.now().toISOString(),
  });
  if (!updated) throw ruleNotFound(id);
  return updated;
}

/** Deletes a rule (204; 404 when the session has none of that id). */
export async function deleteAutomationRule(
  deps: Pick<CoreDeps, 'data'>,
  caller: Caller,
  sessionId: string,
  id: string,
): Promise<void> {
  await loadSession(deps.data.sessions, caller, sessionId);
  if (!(await deps.data.automationRules.delete(sessionId, id))) throw ruleNotFound(id);
}
