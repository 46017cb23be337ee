import type { ApiKeyStore } from './api-key-store.port.js';
import type { AuditLogStore } from './audit-log-store.port.js';
import type { AutomationRuleStore } from './automation-rule-store.port.js';
import type { BatchStore } from './batch-store.port.js';
import type { ChatStore } from './chat-store.port.js';
import type { DeliveryFailureStore } from './delivery-failure-store.port.js';
import type { EventOutbox } from './event-outbox.port.js';
import type { IdentityStore } from './identity-store.port.js';
import type { MessageStatsStore } from './message-stats-store.port.js';
import type { MessageStore } from './message-store.port.js';
import type { SendIdempotencyStore } from './send-idempotency-store.port.js';
import type { SendPacingStore } from './send-pacing-store.port.js';
import type { SessionStore, TeardownFenceStore } from './session-store.port.js';
import type { SettingsStore } from './settings-store.port.js';
import type { StatusStore } from './status-store.port.js';
import type { TemplateStore } from './template-store.port.js';
import type { WebhookStore } from './webhook-store.port.js';

/** The main store: API keys and the audit log. */
export interface MainStore {
  readonly apiKeys: ApiKeyStore;
  readonly audit: AuditLogStore;
  /** Resolves when the store answers a trivial query; rejects otherwise. */
  ping(): Promise<void>;
  close(): Promise<void>;
}

/**
 * The data store: sessions, messages, the event outbox, webhooks, delivery failures, autoreply rules, message
 * templates, send idempotency keys, identity aliases, send pacing, message batches, chats, status updates; the rest as they land.
 */
export interface DataStore {
  readonly sessions: SessionStore;
  readonly fences: TeardownFenceStore;
  readonly messages: MessageStore;
  /** The message counters the statistics read (kept by `messages` on write). */
  readonly messageStats: MessageStatsStore;
  /** The run-time settings' overrides (GET/PUT /api/infra/config). */
  readonly settings: SettingsStore;
  /** Events waiting for delivery, written with the message rows they describe. */
  readonly outbox: EventOutbox;
  readonly webhooks: WebhookStore;
  readonly deliveryFailures: DeliveryFailureStore;
  readonly automationRules: AutomationRuleStore;
  readonly templates: TemplateStore;
  /** The Idempotency-Keys of single sends. */
  readonly sendIdempotency: SendIdempotencyStore;
  /** Contacts' LID ↔ phone aliases, which history filters resolve. */
  readonly identities: IdentityStore;
  /** Send pacing: the day's accepted sends and the breaker, per session (written only with SEND_PACING_ENABLED). */
  readonly sendPacing: SendPacingStore;
  /** send-bulk jobs: what each holds and how far it got. */
  readonly batches: BatchStore;
  /** The chat list of each session, as the engine and the stored messages report it. */
  readonly chats: ChatStore;
  /** Status updates: contacts' posts (24 h) and the account's own. */
  readonly statuses: StatusStore;
  /**
   * Runs `work` (the data import's replacement) so that its writes through this store land all or none where the
   * store can: SQLite runs it in one IMMEDIATE transaction, rolled back when `work` throws (what else writes on the
   * connection meanwhile joins it, so callers quiesce first). DynamoDB has no transaction of that size: `work` runs
   * as it is, and its writes stay when it fails (the import documents its batch sequence, which is rerun to finish).
   */
  atomically<T>(work: () => Promise<T>): Promise<T>;
  ping(): Promise<void>;
  close(): Promise<void>;
}
