/**
 * Composition of the SQLite stores: opens a file, brings its schema up to date and wires the adapters of the
 * main store (keys, audit) or the data store (sessions, fences, messages and their event outbox, webhooks, delivery
 * failures, automation rules, templates, send keys, message batches, chats) onto one connection.
 */
import type { DataStore, MainStore } from '#shared/ports/stores.port.js';
import { DATA_STORE_MIGRATIONS } from './data-store.migrations.js';
import { MAIN_STORE_MIGRATIONS } from './main-store.migrations.js';
import { SqliteApiKeyStore } from './sqlite-api-key-store.js';
import { SqliteAuditLogStore } from './sqlite-audit-log-store.js';
import { SqliteAutomationRuleStore } from './sqlite-automation-rule-store.js';
import { SqliteBatchStore } from './sqlite-batch-store.js';
import { SqliteChatStore } from './sqlite-chat-store.js';
import { type Migration, openSqlite, runMigrations, type SqliteDb } from './sqlite-database.js';
import { SqliteDeliveryFailureStore } from './sqlite-delivery-failure-store.js';
import { SqliteEventOutbox, SqliteOutboxWriter } from './sqlite-event-outbox.js';
import { SqliteIdentityStore } from './sqlite-identity-store.js';
import { SqliteMessageStatsStore } from './sqlite-message-stats-store.js';
import { SqliteMessageStore } from './sqlite-message-store.js';
import { SqliteSendIdempotencyStore } from './sqlite-send-idempotency-store.js';
import { SqliteSendPacingStore } from './sqlite-send-pacing-store.js';
import { SqliteSessionStore } from './sqlite-session-store.js';
import { SqliteSettingsStore } from './sqlite-settings-store.js';
import { SqliteStatusStore } from './sqlite-status-store.js';
import { runSql } from './sqlite-store-support.js';
import { SqliteTeardownFenceStore } from './sqlite-teardown-fence-store.js';
import { SqliteTemplateStore } from './sqlite-template-store.js';
import { SqliteWebhookStore } from './sqlite-webhook-store.js';

interface Lifecycle {
  ping(): Promise<void>;
  close(): Promise<void>;
}

/** Opens and migrates `file`; a failure closes the connection again and surfaces as an AppError. */
function openMigrated(file: string, migrations: readonly Migration[], store: string): SqliteDb {
  return runSql(store, () => {
    const db = openSqlite(file);
    try {
      runMigrations(db, migrations);
      return db;
    } catch (error) {
      db.close();
      throw error;
    }
  });
}

function lifecycleOf(db: SqliteDb, store: string): Lifecycle {
  const probe = db.prepare('SELECT 1');
  return {
    async ping() {
      runSql(store, () => probe.get());
    },
    async close() {
      // Closing twice is harmless, so shutdown paths need not track who closed first.
      if (db.open) db.close();
    },
  };
}

/**
 * Runs `work` inside one IMMEDIATE transaction of the connection: the stores' own transactions become savepoints
 * in it (better-sqlite3 nests them so), and a throw rolls everything back.
 */
async function atomically<T>(db: SqliteDb, work: () => Promise<T>): Promise<T> {
  runSql('Data store', () => db.exec('BEGIN IMMEDIATE'));
  try {
    const result = await work();
    runSql('Data store', () => db.exec('COMMIT'));
    return result;
  } catch (error) {
    if (db.inTransaction) db.exec('ROLLBACK');
    throw error;
  }
}

/** The main store (API keys and audit log) in the SQLite file `file`, migrated to the current schema. */
export function openSqliteMainStore(file: string): MainStore {
  const db = openMigrated(file, MAIN_STORE_MIGRATIONS, 'Main store');
  return {
    apiKeys: new SqliteApiKeyStore(db),
    audit: new SqliteAuditLogStore(db),
    ...lifecycleOf(db, 'Main store'),
  };
}

/** The data store in the SQLite file `file`, migrated to the current schema. */
export function openSqliteDataStore(file: string): DataStore {
  const db = openMigrated(file, DATA_STORE_MIGRATIONS, 'Data store');
  const outboxWriter = new SqliteOutboxWriter(db);
  const messageStats = new SqliteMessageStatsStore(db);
  // A timed fold that fails is retried by the next one, or by the next statistics read, which reports its error.
  messageStats.rollup.start(() => {});
  const lifecycle = lifecycleOf(db, 'Data store');
  return {
    sessions: new SqliteSessionStore(db, outboxWriter),
    fences: new SqliteTeardownFenceStore(db),
    messages: new SqliteMessageStore(db, outboxWriter),
    messageStats,
    settings: new SqliteSettingsStore(db),
    outbox: new SqliteEventOutbox(db, outboxWriter),
    webhooks: new SqliteWebhookStore(db),
    deliveryFailures: new SqliteDeliveryFailureStore(db),
    automationRules: new SqliteAutomationRuleStore(db),
    templates: new SqliteTemplateStore(db),
    sendIdempotency: new SqliteSendIdempotencyStore(db),
    identities: new SqliteIdentityStore(db),
    sendPacing: new SqliteSendPacingStore(db),
    batches: new SqliteBatchStore(db),
    chats: new SqliteChatStore(db),
    statuses: new SqliteStatusStore(db),
    atomically: (work) => atomically(db, work),
    ping: lifecycle.ping,
    async close() {
      messageStats.rollup.stop();
      await lifecycle.close();
    },
  };
}
