/**
 * Composition of the DynamoDB stores: the data store (sessions, fences, messages, event outbox, webhooks, delivery failures,
 * automation rules, templates) on `<prefix>data` and the main store (API keys, audit log) on `<prefix>main`. Tables come from
 * createTables (tests, local use) or from infrastructure code with the same schema (see dynamodb-tables.ts).
 */
import { DescribeTableCommand, type DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { UnavailableError } from '#shared/errors/app-error.js';
import type { DataStore, MainStore } from '#shared/ports/stores.port.js';
import { DynamoDbApiKeyStore } from './dynamodb-api-key-store.js';
import { DynamoDbAuditLogStore } from './dynamodb-audit-log-store.js';
import { DynamoDbAutomationRuleStore } from './dynamodb-automation-rule-store.js';
import { DynamoDbBatchStore } from './dynamodb-batch-store.js';
import { DynamoDbChatStore } from './dynamodb-chat-store.js';
import { DynamoDbDeliveryFailureStore } from './dynamodb-delivery-failure-store.js';
import { DynamoDbEventOutbox } from './dynamodb-event-outbox.js';
import { DynamoDbIdentityStore } from './dynamodb-identity-store.js';
import { DynamoDbMessageStatsStore } from './dynamodb-message-stats-store.js';
import { DynamoDbMessageStore } from './dynamodb-message-store.js';
import { DynamoDbSendIdempotencyStore } from './dynamodb-send-idempotency-store.js';
import { DynamoDbSendPacingStore } from './dynamodb-send-pacing-store.js';
import { DynamoDbSessionStore } from './dynamodb-session-store.js';
import { DynamoDbSettingsStore } from './dynamodb-settings-store.js';
import { DynamoDbStatusStore } from './dynamodb-status-store.js';
import { documentClient, guard } from './dynamodb-support.js';
import { tableNames } from './dynamodb-tables.js';
import { DynamoDbTeardownFenceStore } from './dynamodb-teardown-fence-store.js';
import { DynamoDbTemplateStore } from './dynamodb-template-store.js';
import { DynamoDbWebhookStore } from './dynamodb-webhook-store.js';

/** Where the stores live: a client (region, endpoint, credentials are the caller's) and the table-name prefix. */
export interface DynamoDbStoreOptions {
  client: DynamoDBClient;
  tablePrefix: string;
  /** Items a message search reads at most (default DEFAULT_SEARCH_SCAN_LIMIT). */
  searchScanLimit?: number;
  /** Told of a statistics counter that could not be written after its message was (the message stays uncounted). */
  onStatsCountFailure?: (error: unknown) => void;
}

function lifecycleOf(client: DynamoDBClient, table: string, store: string) {
  let closed = false;
  return {
    async ping() {
      if (closed) throw new UnavailableError('DEPENDENCY_UNAVAILABLE', `${store} is closed`);
      await guard(store, () => client.send(new DescribeTableCommand({ TableName: table })));
    },
    // The client belongs to the caller (it may serve both stores), so closing only stops this store's pings.
    async close() {
      closed = true;
    },
  };
}

/** The main store (API keys and audit log) on `<tablePrefix>main`. */
export function openDynamoDbMainStore({ client, tablePrefix }: DynamoDbStoreOptions): MainStore {
  const table = tableNames(tablePrefix).main;
  const doc = documentClient(client);
  return {
    apiKeys: new DynamoDbApiKeyStore(doc, table),
    audit: new DynamoDbAuditLogStore(doc, table),
    ...lifecycleOf(client, table, 'Main store'),
  };
}

/** The data store on `<tablePrefix>data`. */
export function openDynamoDbDataStore({
  client,
  tablePrefix,
  searchScanLimit,
  onStatsCountFailure,
}: DynamoDbStoreOptions): DataStore {
  const table = tableNames(tablePrefix).data;
  const doc = documentClient(client);
  return {
    sessions: new DynamoDbSessionStore(doc, table),
    fences: new DynamoDbTeardownFenceStore(doc, table),
    messages: new DynamoDbMessageStore(doc, table, searchScanLimit, onStatsCountFailure),
    messageStats: new DynamoDbMessageStatsStore(doc, table),
    settings: new DynamoDbSettingsStore(doc, table),
    outbox: new DynamoDbEventOutbox(doc, table),
    webhooks: new DynamoDbWebhookStore(doc, table),
    deliveryFailures: new DynamoDbDeliveryFailureStore(doc, table),
    automationRules: new DynamoDbAutomationRuleStore(doc, table),
    templates: new DynamoDbTemplateStore(doc, table),
    sendIdempotency: new DynamoDbSendIdempotencyStore(doc, table),
    identities: new DynamoDbIdentityStore(doc, table),
    sendPacing: new DynamoDbSendPacingStore(doc, table),
    batches: new DynamoDbBatchStore(doc, table),
    chats: new DynamoDbChatStore(doc, table),
    statuses: new DynamoDbStatusStore(doc, table),
    // No transaction spans thousands of items: the import's batch sequence is rerun to finish (README).
    atomically: (work) => work(),
    ...lifecycleOf(client, table, 'Data store'),
  };
}
