/**
 * Automation (autoreply) rules: the stored record, which is also the response shape, and the request bodies
 * (spec "Automation rule", openwa-facts §2 "Automation rules").
 */
import { z } from 'zod';
import { IsoTimestamp, resourceName, Uuid } from './common.js';
import { WebhookFilters, WebhookFiltersInput } from './webhook-filters.js';

export const DEFAULT_COOLDOWN_SECONDS = 60;
export const MAX_COOLDOWN_SECONDS = 86_400;
export const MAX_REPLY_TEXT = 4096;

/** The stored rule, returned as is. `conditions` null matches every inbound message. */
export const AutomationRule = z
  .object({
    id: Uuid,
    sessionId: Uuid,
    name: z.string().max(100),
    enabled: z.boolean(),
    conditions: WebhookFilters.nullable(),
    replyText: z.string(),
    cooldownSeconds: z.number().int().min(0),
    createdAt: IsoTimestamp,
    updatedAt: IsoTimestamp,
  })
  .meta({ id: 'AutomationRule' });
export type AutomationRule = z.infer<typeof AutomationRule>;

/** A rule's name: a resource name (no control or bidi characters) of 1–100 characters. */
export const AutomationRuleName = resourceName(1, 100);
const ReplyText = z.string().min(1).max(MAX_REPLY_TEXT);
/** Per (rule, chat) quiet period in seconds; 0 lets the rule answer every message. */
const CooldownSeconds = z.number().int().min(0).max(MAX_COOLDOWN_SECONDS);

export const CreateAutomationRuleBody = z.strictObject({
  name: AutomationRuleName,
  replyText: ReplyText,
  conditions: WebhookFiltersInput.default(null),
  cooldownSeconds: CooldownSeconds.default(DEFAULT_COOLDOWN_SECONDS),
  enabled: z.boolean().default(true),
});
export type CreateAutomationRuleBody = z.infer<typeof CreateAutomationRuleBody>;

/** Partial update; explicit null is refused except on `conditions`, where it (or no conditions) matches all. */
export const UpdateAutomationRuleBody = z.strictObject({
  name: AutomationRuleName.optional(),
  replyText: ReplyText.optional(),
  conditions: WebhookFiltersInput.optional(),
  cooldownSeconds: CooldownSeconds.optional(),
  enabled: z.boolean().optional(),
});
export type UpdateAutomationRuleBody = z.infer<typeof UpdateAutomationRuleBody>;
