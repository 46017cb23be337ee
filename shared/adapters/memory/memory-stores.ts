/**
 * In-memory main and data stores: the fakes unit tests compose instead of SQLite. They pass the same contract
 * suites as the SQLite adapters, so a use case tested against them behaves the same in production.
 */
import { UnavailableError } from '#shared/errors/app-error.js';
import type { DataStore, MainStore } from '#shared/ports/stores.port.js';
import { MemoryApiKeyStore } from './memory-api-key-store.js';
import { MemoryAuditLogStore } from './memory-audit-log-store.js';
import { MemoryAutomationRuleStore } from './memory-automation-rule-store.js';
import { MemoryBatchStore } from './memory-batch-store.js';
import { MemoryChatStore } from './memory-chat-store.js';
import { MemoryDeliveryFailureStore } from './memory-delivery-failure-store.js';
import { MemoryEventOutbox } from './memory-event-outbox.js';
import { MemoryIdentityStore } from './memory-identity-store.js';
import { MemoryMessageStore } from './memory-message-store.js';
import { MemorySendIdempotencyStore } from './memory-send-idempotency-store.js';
import { MemorySendPacingStore } from './memory-send-pacing-store.js';
import { MemorySessionStore } from './memory-session-store.js';
import { MemorySettingsStore } from './memory-settings-store.js';
import { MemoryStatusStore } from './memory-status-store.js';
import { MemoryTeardownFenceStore } from './memory-teardown-fence-store.js';
import { MemoryTemplateStore } from './memory-template-store.js';
import { MemoryWebhookStore } from './memory-webhook-store.js';

export { MemoryApiKeyStore } from './memory-api-key-store.js';
export { MemoryAuditLogStore } from './memory-audit-log-store.js';
export { MemoryAutomationRuleStore } from './memory-automation-rule-store.js';
export { MemoryBatchStore } from './memory-batch-store.js';
export { MemoryChatStore } from './memory-chat-store.js';
export { MemoryDeliveryFailureStore } from './memory-delivery-failure-store.js';
export { MemoryEventOutbox } from './memory-event-outbox.js';
export { MemoryMessageStore } from './memory-message-store.js';
export { MemorySendIdempotencyStore } from './memory-send-idempotency-store.js';
export { MemorySendPacingStore } from './memory-send-pacing-store.js';
export { MemorySessionStore } from './memory-session-store.js';
export { MemoryTeardownFenceStore } from './memory-teardown-fence-store.js';
export { MemoryTemplateStore } from './memory-template-store.js';
export { MemoryWebhookStore } from './memory-webhook-store.js';

interface Lifecycle {
  ping(): Promise<void>;
  close(): Promise<void>;
}

/** ping answers until close, then rejects like a closed SQLite connection does. */
function lifecycle(store: string): Lifecycle {
  let open = true;
  return {
    async ping() {
      if (!open) throw new UnavailableError('DEPENDENCY_UNAVAILABLE', `${store} is unavailable`);
    },
    async close() {
      open = false;
    },
  };
}

/** A fresh, empty in-memory main store (API keys and audit log). */
export function createMemoryMainStore(): MainStore {
  return { apiKeys: new MemoryApiKeyStore(), audit: new MemoryAuditLogStore(), ...lifecycle('Main store') };
}

/**
 * A fresh, empty in-memory data store (sessions, fences, messages, outbox, webhooks, failures, rules, templates,
 * chats, …).
 */
export function createMemoryDataStore(): DataStore {
  const outbox = new MemoryEventOutbox();
  const messages = new MemoryMessageStore(outbox);
  return {
    sessions: new MemorySessionStore(outbox),
    fences: new MemoryTeardownFenceStore(),
    messages,
    messageStats: messages.stats,
    settings: new MemorySettingsStore(),
    outbox,
    webhooks: new MemoryWebhookStore(),
    deliveryFailures: new MemoryDeliveryFailureStore(),
    automationRules: new MemoryAutomationRuleStore(),
    templates: new MemoryTemplateStore(),
    sendIdempotency: new MemorySendIdempotencyStore(),
    identities: new MemoryIdentityStore(),
    sendPacing: new MemorySendPacingStore(),
    batches: new MemoryBatchStore(),
    chats: new MemoryChatStore(),
    statuses: new MemoryStatusStore(outbox),
    atomically: (work) => work(),
    ...lifecycle('Data store'),
  };
}
