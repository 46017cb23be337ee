/**
 * In-memory AutomationRuleStore: the unit-test fake, behaving like the SQLite adapter (copies, evaluation order,
 * cap, errors), with the cooldowns in a Map of end instants.
 */
import type { AutomationRule } from '#shared/domain/automation-rule.js';
import {
  AUTOMATION_RULE_PATCH_FIELDS,
  type AutomationRulePatch,
  type AutomationRuleStore,
  automationRuleLimitReached,
  cooldownEnd,
} from '#shared/ports/automation-rule-store.port.js';
import type { PerSessionCap } from '#shared/ports/webhook-store.port.js';
import { MemoryScopedRecords } from './memory-scoped-records.js';
import { jsonCopy, oldestFirst } from './memory-support.js';

function copyRule(rule: AutomationRule): AutomationRule {
  return {
    id: rule.id,
    sessionId: rule.sessionId,
    name: rule.name,
    enabled: rule.enabled,
    conditions: rule.conditions === null ? null : jsonCopy(rule.conditions),
    replyText: rule.replyText,
    cooldownSeconds: rule.cooldownSeconds,
    createdAt: rule.createdAt,
    updatedAt: rule.updatedAt,
  };
}

/** Rules and cooldowns in Maps; every method is atomic because nothing in it awaits. */
export class MemoryAutomationRuleStore implements AutomationRuleStore {
  private readonly records = new MemoryScopedRecords(copyRule, 'automation rule');
  /** Cooldown end (ISO) per (rule, chat); JSON keeps the pair unambiguous whatever the strings hold. */
  private readonly cooldowns = new Map<string, string>();

  async create(rule: AutomationRule, cap: PerSessionCap): Promise<void> {
    this.records.create(rule, cap, automationRuleLimitReached);
  }

  async findById(sessionId: string, id: string): Promise<AutomationRule | null> {
    return this.records.find(sessionId, id);
  }

  async listBySession(sessionId: string): Promise<AutomationRule[]> {
    return this.records.ofSession(sessionId, oldestFirst);
  }

  async update(sessionId: string, id: string, patch: AutomationRulePatch): Promise<AutomationRule | null> {
    return this.records.update(sessionId, id, patch, AUTOMATION_RULE_PATCH_FIELDS);
  }

  async delete(sessionId: string, id: string): Promise<boolean> {
    return this.records.delete(sessionId, id);
  }

  async deleteBySession(sessionId: string): Promise<number> {
    return this.records.deleteBySession(sessionId);
  }

  async claimCooldown(ruleId: string, chatId: string, now: Date, cooldownSeconds: number): Promise<boolean> {
    if (cooldownSeconds <= 0) return true;
    const instant = now.toISOString();
    // Ended cooldowns go in passing, so the map holds only running ones (a test fake may sweep it all).
    for (const [key, end] of this.cooldowns) if (end <= instant) this.cooldowns.delete(key);
    const key = JSON.stringify([ruleId, chatId]);
    if (this.cooldowns.has(key)) return false;
    this.cooldowns.set(key, cooldownEnd(now, cooldownSeconds));
    return true;
  }
}
