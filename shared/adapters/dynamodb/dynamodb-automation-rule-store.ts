/**
 * Automation rules in DynamoDB: one partition per session (DynamoDbScopedItems: capped create, consistent reads in
 * evaluation order). A cooldown is its own item, pk `COOLDOWN#<ruleId>#<chatId>`, claimed with one conditional
 * put (no item, or one whose `endsAt` has passed), so of two racing claims exactly one passes; its `ttl` lets
 * DynamoDB remove it once ended, and reads never rely on TTL having run.
 */
import { type DynamoDBDocumentClient, PutCommand } from '@aws-sdk/lib-dynamodb';
import { patchFields } from '#shared/adapters/patch-support.js';
import type { AutomationRule } from '#shared/domain/automation-rule.js';
import { WebhookFilters } from '#shared/domain/webhook-filters.js';
import {
  AUTOMATION_RULE_FIELDS,
  AUTOMATION_RULE_PATCH_FIELDS,
  type AutomationRulePatch,
  type AutomationRuleStore,
  automationRuleLimitReached,
  cooldownEnd,
} from '#shared/ports/automation-rule-store.port.js';
import type { PerSessionCap } from '#shared/ports/webhook-store.port.js';
import { DynamoDbScopedItems } from './dynamodb-scoped-items.js';
import { guard, type Item, isConditionFailed } from './dynamodb-support.js';

const STORE = 'Data store';

const cooldownKey = (ruleId: string, chatId: string) => ({
  pk: `COOLDOWN#${ruleId}#${chatId}`,
  sk: 'COOLDOWN',
});

function toRule(item: Item): AutomationRule {
  const rule: Record<string, unknown> = {};
  for (const field of AUTOMATION_RULE_FIELDS) rule[field] = item[field] ?? null;
  const conditions = WebhookFilters.safeParse(item.conditions);
  rule.conditions = conditions.success ? conditions.data : null;
  return rule as AutomationRule;
}

/** Evaluation order: oldest first, id breaking ties. */
function evaluationOrder(a: AutomationRule, b: AutomationRule): number {
  return a.createdAt.localeCompare(b.createdAt) || a.id.localeCompare(b.id);
}

/** AutomationRuleStore on the data table. */
export class DynamoDbAutomationRuleStore implements AutomationRuleStore {
  private readonly items: DynamoDbScopedItems<AutomationRule>;

  constructor(
    private readonly doc: DynamoDBDocumentClient,
    private readonly table: string,
  ) {
    this.items = new DynamoDbScopedItems(doc, table, {
      family: 'RULES',
      kind: 'RULE',
      what: 'automation rule',
      fromItem: toRule,
      limitReached: automationRuleLimitReached,
    });
  }

  create(rule: AutomationRule, cap: PerSessionCap): Promise<void> {
    return guard(STORE, () => this.items.create(rule, cap));
  }

  findById(sessionId: string, id: string): Promise<AutomationRule | null> {
    return guard(STORE, () => this.items.find(sessionId, id));
  }

  listBySession(sessionId: string): Promise<AutomationRule[]> {
    return guard(STORE, async () => (await this.items.listBySession(sessionId)).sort(evaluationOrder));
  }

  update(sessionId: string, id: string, patch: AutomationRulePatch): Promise<AutomationRule | null> {
    return guard(STORE, () =>
      this.items.update(sessionId, id, patchFields(patch, AUTOMATION_RULE_PATCH_FIELDS)),
    );
  }

  delete(sessionId: string, id: string): Promise<boolean> {
    return guard(STORE, () => this.items.delete(sessionId, id));
  }

  deleteBySession(sessionId: string): Promise<number> {
    return guard(STORE, () => this.items.deleteBySession(sessionId));
  }

  claimCooldown(ruleId: string, chatId: string, now: Date, cooldownSeconds: number): Promise<boolean> {
    return guard(STORE, async () => {
      if (cooldownSeconds <= 0) return true;
      const endsAt = cooldownEnd(now, cooldownSeconds);
      try {
        await this.doc.send(
          new PutCommand({
            TableName: this.table,
            Item: { ...cooldownKey(ruleId, chatId), endsAt, ttl: Math.ceil(Date.parse(endsAt) / 1000) },
            ConditionExpression: 'attribute_not_exists(pk) OR endsAt <= :now',
            ExpressionAttributeValues: { ':now': now.toISOString() },
          }),
        );
        return true;
      } catch (error) {
        if (isConditionFailed(error)) return false;
        throw error;
      }
    });
  }
}
