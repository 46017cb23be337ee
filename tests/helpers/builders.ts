/**
 * Test-data builders: each returns a valid domain object with unique ids, names and hashes, so tests state only
 * the fields they care about.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import type { ApiKey } from '#shared/domain/api-key.js';
import type { AuditEntry } from '#shared/domain/audit.js';
import type { AutomationRule } from '#shared/domain/automation-rule.js';
import type { GatewayEvent, MessageEventData } from '#shared/domain/events.js';
import type { Message } from '#shared/domain/message.js';
import { type BulkItem, type MessageBatch, newBatch } from '#shared/domain/message-batch.js';
import type { Session } from '#shared/domain/session.js';
import type { Template } from '#shared/domain/template.js';
import type { DeliveryFailure, Webhook } from '#shared/domain/webhook.js';

/** A fixed instant tests can count from, so timestamps and their order are deterministic. */
export const T0 = new Date('2025-01-01T00:00:00.000Z');

/** ISO timestamp `seconds` after (or before, when negative) T0. */
export function at(seconds: number): string {
  return new Date(T0.getTime() + seconds * 1000).toISOString();
}

export function aSession(overrides: Partial<Session> = {}): Session {
  const createdAt = overrides.createdAt ?? new Date().toISOString();
  return {
    id: randomUUID(),
    name: `session-${randomUUID().slice(0, 8)}`,
    status: 'created',
    phone: null,
    pushName: null,
    config: {},
    proxyUrl: null,
    proxyType: null,
    connectedAt: null,
    lastActiveAt: null,
    lastError: null,
    nodeId: null,
    nodeUrl: null,
    claimedAt: null,
    leaseExpiresAt: null,
    createdAt,
    updatedAt: createdAt,
    ...overrides,
  };
}

export function anApiKey(overrides: Partial<ApiKey> = {}): ApiKey {
  const createdAt = overrides.createdAt ?? new Date().toISOString();
  const keyHash = randomBytes(32).toString('hex');
  return {
    id: randomUUID(),
    name: `key-${randomUUID().slice(0, 8)}`,
    keyHash,
    keyPrefix: `wg_${keyHash.slice(0, 9)}`,
    role: 'operator',
    allowedIps: null,
    allowedSessions: null,
    allowedChats: null,
    isActive: true,
    expiresAt: null,
    lastUsedAt: null,
    usageCount: 0,
    createdAt,
    updatedAt: createdAt,
    ...overrides,
  };
}

export function anAuditEntry(overrides: Partial<AuditEntry> = {}): AuditEntry {
  return {
    id: randomUUID(),
    action: 'session_created',
    severity: 'info',
    apiKeyId: null,
    apiKeyName: null,
    sessionId: null,
    sessionName: null,
    ipAddress: null,
    userAgent: null,
    method: null,
    path: null,
    statusCode: null,
    metadata: null,
    errorMessage: null,
    createdAt: new Date().toISOString(),
    ...overrides,
  };
}

/**
 * An outgoing text message sent at T0, with a unique id and network id; group messages set `chatId`/`from` to the
 * group and `author` to the participant.
 */
export function aMessage(overrides: Partial<Message> = {}): Message {
  return {
    id: randomUUID(),
    sessionId: randomUUID(),
    waMessageId: `3EB0${randomBytes(8).toString('hex').toUpperCase()}`,
    chatId: '4915112345678@c.us',
    chatName: null,
    author: null,
    from: '4915100000001@c.us',
    to: '4915112345678@c.us',
    body: 'hello',
    type: 'text',
    direction: 'outgoing',
    timestamp: Math.floor(T0.getTime() / 1000),
    metadata: null,
    status: 'sent',
    mediaPath: null,
    mediaMimetype: null,
    createdAt: new Date().toISOString(),
    ...overrides,
  };
}

/** An active webhook of `sessionId` (a random one unless given) for message.received, without secret or filters. */
export function aWebhook(overrides: Partial<Webhook> = {}): Webhook {
  const createdAt = overrides.createdAt ?? new Date().toISOString();
  return {
    id: randomUUID(),
    sessionId: randomUUID(),
    url: 'https://hooks.example.com/waygate',
    events: ['message.received'],
    secret: null,
    headers: {},
    filters: null,
    active: true,
    retryCount: 3,
    lastTriggeredAt: null,
    createdAt,
    updatedAt: createdAt,
    ...overrides,
  };
}

/** An enabled autoreply rule without conditions, with the default 60 s cooldown. */
export function anAutomationRule(overrides: Partial<AutomationRule> = {}): AutomationRule {
  const createdAt = overrides.createdAt ?? new Date().toISOString();
  return {
    id: randomUUID(),
    sessionId: randomUUID(),
    name: `rule-${randomUUID().slice(0, 8)}`,
    enabled: true,
    conditions: null,
    replyText: 'Thanks, we will answer soon.',
    cooldownSeconds: 60,
    createdAt,
    updatedAt: createdAt,
    ...overrides,
  };
}

/** A template with a unique name, a `{{name}}` placeholder in its body, and no header or footer. */
export function aTemplate(overrides: Partial<Template> = {}): Template {
  const createdAt = overrides.createdAt ?? new Date().toISOString();
  return {
    id: randomUUID(),
    sessionId: randomUUID(),
    name: `template-${randomUUID().slice(0, 8)}`,
    body: 'Hello {{name}}, your order is on its way.',
    header: null,
    footer: null,
    createdAt,
    updatedAt: createdAt,
    ...overrides,
  };
}

/** A pending batch of `items` texts (to numbered chats, `Hi {{name}} #<i>` with a name), unique ids, no delay jitter. */
export function aBatch(overrides: Partial<MessageBatch> = {}, items = 2): MessageBatch {
  const messages: BulkItem[] = Array.from({ length: items }, (_item, i) => ({
    chatId: `1555000${String(1000 + i)}@c.us`,
    type: 'text',
    content: { text: `Hi {{name}} #${i}` },
    variables: { name: `Ada ${i}` },
  }));
  const base = newBatch({
    id: randomUUID(),
    batchId: `batch_${randomBytes(6).toString('hex')}`,
    sessionId: randomUUID(),
    messages: overrides.messages ?? messages,
    options: { delayBetweenMessages: 1000, randomizeDelay: false, stopOnError: false },
    now: overrides.createdAt ?? new Date().toISOString(),
  });
  return { ...base, ...overrides };
}

/** A delivery that exhausted 3 attempts against a 503, with a unique idempotency key. */
export function aDeliveryFailure(overrides: Partial<DeliveryFailure> = {}): DeliveryFailure {
  const id = randomUUID();
  return {
    id,
    webhookId: randomUUID(),
    sessionId: randomUUID(),
    event: 'message.received',
    url: 'https://hooks.example.com/waygate',
    idempotencyKey: `msg_${id}`,
    deliveryId: `dlv_${randomUUID()}`,
    attempts: 3,
    lastStatusCode: 503,
    lastError: 'HTTP 503',
    createdAt: new Date().toISOString(),
    ...overrides,
  };
}

/**
 * The `message.received` event of a text that a contact (`15550002222@c.us` unless overridden) sent to the account
 * `15550001111` of `sessionId`, now, with a unique network id and stored-message id.
 */
export function aReceivedText(
  sessionId: string,
  overrides: Partial<MessageEventData> = {},
): Extract<GatewayEvent, { event: 'message.received' }> {
  const chatId = overrides.chatId ?? '15550002222@c.us';
  return {
    event: 'message.received',
    sessionId,
    occurredAt: new Date().toISOString(),
    data: {
      id: `3EB0${randomBytes(9).toString('hex').toUpperCase()}`,
      messageId: randomUUID(),
      chatId,
      from: chatId,
      to: '15550001111@c.us',
      author: null,
      body: 'hello',
      type: 'text',
      timestamp: Math.floor(Date.now() / 1000),
      fromMe: false,
      isGroup: false,
      sender: { phone: chatId, lid: null },
      ...overrides,
    },
  };
}
