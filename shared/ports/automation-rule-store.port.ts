import {
  type AutomationRule,
  AutomationRule as AutomationRuleSchema,
} from '#shared/domain/automation-rule.js';
import { ValidationError } from '#shared/errors/app-error.js';
import type { PerSessionCap } from './webhook-store.port.js';

/** Every field of a stored rule, in schema order (adapters map rows and items field by field). */
export const AUTOMATION_RULE_FIELDS = AutomationRuleSchema.keyof().options;

/** The fields of a rule that an update may change. */
export const AUTOMATION_RULE_PATCH_FIELDS = [
  'name',
  'enabled',
  'conditions',
  'replyText',
  'cooldownSeconds',
  'updatedAt',
] as const satisfies readonly (keyof AutomationRule)[];

export type AutomationRulePatch = Partial<
  Pick<AutomationRule, (typeof AUTOMATION_RULE_PATCH_FIELDS)[number]>
>;

/** The 400 every adapter raises when a session already holds `max` rules. */
export function automationRuleLimitReached(max: number): ValidationError {
  return new ValidationError(`A session may have at most ${max} automation rules`, {
    code: 'AUTOMATION_RULE_LIMIT',
    details: { maxPerSession: max },
  });
}

/** When a cooldown claimed at `now` for `cooldownSeconds` ends (ISO text, so stores compare it in time order). */
export function cooldownEnd(now: Date, cooldownSeconds: number): string {
  return new Date(now.getTime() + cooldownSeconds * 1000).toISOString();
}

/**
 * Autoreply rules of the data store, scoped to their session like webhooks, plus the per (rule, chat) cooldowns
 * that keep a rule from answering the same chat again too soon. Cooldowns are stored so they survive a restart.
 */
export interface AutomationRuleStore {
  /**
   * Inserts a rule unless its session already holds `cap.maxPerSession` (0 = no cap; ValidationError
   * AUTOMATION_RULE_LIMIT, counted atomically with the insert). A taken id raises ConflictError; an unknown session
   * NotFoundError where the store knows sessions (SQLite, DynamoDB).
   */
  create(rule: AutomationRule, cap: PerSessionCap): Promise<void>;
  findById(sessionId: string, id: string): Promise<AutomationRule | null>;
  /** The session's rules in evaluation order: oldest first (createdAt, then id). */
  listBySession(sessionId: string): Promise<AutomationRule[]>;
  /** Applies the patch's listed fields; the rule as stored afterwards, or null when it does not exist. */
  update(sessionId: string, id: string, patch: AutomationRulePatch): Promise<AutomationRule | null>;
  /** False when it did not exist. */
  delete(sessionId: string, id: string): Promise<boolean>;
  /** Deletes every rule of a session (session delete); answers how many. */
  deleteBySession(sessionId: string): Promise<number>;
  /**
   * Atomically decides whether `ruleId` may answer `chatId` at `now`: true when no cooldown of that pair is running
   * (none recorded, or its end at or before `now`), and then records a new one ending `cooldownSeconds` later;
   * false while one runs, writing nothing. Of two concurrent claims for one pair exactly one wins. With
   * `cooldownSeconds` 0 there is no cooldown: always true, nothing recorded. Ended cooldowns are removed by the
   * store in passing (SQLite, memory) or by expiry (DynamoDB TTL).
   */
  claimCooldown(ruleId: string, chatId: string, now: Date, cooldownSeconds: number): Promise<boolean>;
}
