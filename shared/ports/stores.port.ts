import type { ApiKeyStore } from './api-key-store.port.js';
import type { AuditLogStore } from './audit-log-store.port.js';
import type { MessageStore } from './message-store.port.js';
import type { SessionStore, TeardownFenceStore } from './session-store.port.js';

/** The main store: API keys and the audit log. */
export interface MainStore {
  readonly apiKeys: ApiKeyStore;
  readonly audit: AuditLogStore;
  /** Resolves when the store answers a trivial query; rejects otherwise. */
  ping(): Promise<void>;
  close(): Promise<void>;
}

/** The data store: sessions and messages now; webhooks, rules and the rest as their issues land. */
export interface DataStore {
  readonly sessions: SessionStore;
  readonly fences: TeardownFenceStore;
  readonly messages: MessageStore;
  ping(): Promise<void>;
  close(): Promise<void>;
}
