/** The label tools, and the read-only webhook and automation-rule tools. */
import { getRuleRoute } from '#functions/automation/get-rule.route.js';
import { listRulesRoute } from '#functions/automation/list-rules.route.js';
import { getWebhookRoute } from '#functions/webhooks/get-webhook.route.js';
import { listSessionWebhooksRoute } from '#functions/webhooks/list-session-webhooks.route.js';
import { listWebhooksRoute } from '#functions/webhooks/list-webhooks.route.js';
import type { ToolRow } from './tool-row.js';

export const LABEL_TOOLS: readonly ToolRow[] = [
  {
    name: 'LabelFindAll',
    calls: { operation: 'labels.list' },
    tier: 'read',
    description: "List the session's chat labels (WhatsApp Business).",
  },
  {
    name: 'LabelFindOne',
    calls: { operation: 'labels.get' },
    tier: 'read',
    description: 'Get one label by its id.',
  },
  {
    name: 'LabelListChats',
    calls: { operation: 'labels.chats' },
    tier: 'read',
    description: 'List the chats that carry a label.',
  },
  {
    name: 'LabelListForChat',
    calls: { operation: 'labels.ofChat' },
    tier: 'read',
    description: 'List the labels a chat carries.',
  },
  {
    name: 'LabelUpsert',
    calls: { operation: 'labels.upsert' },
    tier: 'write',
    destructive: true,
    idempotent: true,
    description: 'Create a label, or rename or recolour an existing one.',
  },
  {
    name: 'LabelDelete',
    calls: { operation: 'labels.delete' },
    tier: 'write',
    destructive: true,
    idempotent: true,
    description: 'Delete a label.',
  },
  {
    name: 'LabelAddToChat',
    calls: { operation: 'labels.tag' },
    tier: 'write',
    idempotent: true,
    description: 'Put a label on a chat.',
  },
  {
    name: 'LabelRemoveFromChat',
    calls: { operation: 'labels.untag' },
    tier: 'write',
    idempotent: true,
    description: 'Take a label off a chat.',
  },
];

export const WEBHOOK_TOOLS: readonly ToolRow[] = [
  {
    name: 'WebhooksList',
    calls: listWebhooksRoute,
    tier: 'read',
    description: 'List the webhooks of the sessions this API key may use (secrets and headers stay hidden).',
  },
  {
    name: 'WebhookFindBySession',
    calls: listSessionWebhooksRoute,
    tier: 'read',
    description: "List one session's webhooks.",
  },
  {
    name: 'WebhookFindOne',
    calls: getWebhookRoute,
    tier: 'read',
    description: 'Get one webhook of a session.',
  },
];

export const AUTOMATION_TOOLS: readonly ToolRow[] = [
  {
    name: 'AutomationRuleFindAll',
    calls: listRulesRoute,
    tier: 'read',
    description: "List a session's automation (autoreply) rules.",
  },
  {
    name: 'AutomationRuleFindOne',
    calls: getRuleRoute,
    tier: 'read',
    description: 'Get one automation rule.',
  },
];
