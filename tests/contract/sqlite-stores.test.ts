/**
 * Runs every store contract against the SQLite adapters on real files (a fresh temp folder per test), plus
 * reopening, migration idempotence and the connection lifecycle.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { DATA_STORE_MIGRATIONS } from '#shared/adapters/sqlite/data-store.migrations.js';
import { MAIN_STORE_MIGRATIONS } from '#shared/adapters/sqlite/main-store.migrations.js';
import { openSqlite, runMigrations } from '#shared/adapters/sqlite/sqlite-database.js';
import { openSqliteDataStore, openSqliteMainStore } from '#shared/adapters/sqlite/sqlite-stores.js';
import { UnavailableError } from '#shared/errors/app-error.js';
import type { DataStore, MainStore } from '#shared/ports/stores.port.js';
import { aMessage, anApiKey, anAuditEntry, aSession } from '#tests/helpers/builders.js';
import { apiKeyStoreContract } from './api-key-store.contract.js';
import { auditLogStoreContract } from './audit-log-store.contract.js';
import { automationRuleStoreContract } from './automation-rule-store.contract.js';
import { batchStoreContract } from './batch-store.contract.js';
import { chatStoreContract } from './chat-store.contract.js';
import { deliveryFailureStoreContract } from './delivery-failure-store.contract.js';
import { eventOutboxContract } from './event-outbox.contract.js';
import { identityStoreContract } from './identity-store.contract.js';
import { messageChangesContract } from './message-changes.contract.js';
import { messageChatsContract } from './message-chats.contract.js';
import { messageReadsContract } from './message-reads.contract.js';
import { messageScanContract } from './message-scan.contract.js';
import { messageStoreContract } from './message-store.contract.js';
import { sendIdempotencyStoreContract } from './send-idempotency-store.contract.js';
import { sendPacingStoreContract } from './send-pacing-store.contract.js';
import { sessionStoreContract, teardownFenceStoreContract } from './session-store.contract.js';
import { statusStoreContract } from './status-store.contract.js';
import { templateStoreContract } from './template-store.contract.js';
import { webhookStoreContract } from './webhook-store.contract.js';

function tempDir(): string {
  return fs.mkdtempSync(path.join(os.tmpdir(), 'waygate-stores-'));
}

/** Opens a store on a file in a fresh temp folder; close shuts it and removes the folder. */
function onTempFile<S extends MainStore | DataStore, T>(
  openStore: (file: string) => S,
  pick: (store: S) => T,
) {
  return async () => {
    const dir = tempDir();
    const store = openStore(path.join(dir, 'store.sqlite'));
    return {
      store: pick(store),
      close: async () => {
        await store.close();
        fs.rmSync(dir, { recursive: true, force: true });
      },
    };
  };
}

apiKeyStoreContract(
  'sqlite',
  onTempFile(openSqliteMainStore, (main) => main.apiKeys),
);
auditLogStoreContract(
  'sqlite',
  onTempFile(openSqliteMainStore, (main) => main.audit),
);
sessionStoreContract(
  'sqlite',
  onTempFile(openSqliteDataStore, (data) => data.sessions),
);
teardownFenceStoreContract(
  'sqlite',
  onTempFile(openSqliteDataStore, (data) => data.fences),
);

messageStoreContract('sqlite', async () => {
  const { store: data, close } = await onTempFile(openSqliteDataStore, (opened) => opened)();
  return { store: data.messages, sessions: data.sessions, close };
});

eventOutboxContract('sqlite', async () => {
  const { store: data, close } = await onTempFile(openSqliteDataStore, (opened) => opened)();
  return { outbox: data.outbox, messages: data.messages, sessions: data.sessions, close };
});

messageScanContract('sqlite', async () => {
  const { store: data, close } = await onTempFile(openSqliteDataStore, (opened) => opened)();
  return { store: data.messages, sessions: data.sessions, close };
});

messageReadsContract('sqlite', async () => {
  const { store: data, close } = await onTempFile(openSqliteDataStore, (opened) => opened)();
  return { store: data.messages, sessions: data.sessions, close };
});

messageChangesContract('sqlite', async () => {
  const { store: data, close } = await onTempFile(openSqliteDataStore, (opened) => opened)();
  return { outbox: data.outbox, messages: data.messages, sessions: data.sessions, close };
});

identityStoreContract('sqlite', async () => {
  const { store: data, close } = await onTempFile(openSqliteDataStore, (opened) => opened)();
  return { store: data.identities, sessions: data.sessions, close };
});

webhookStoreContract('sqlite', async () => {
  const { store: data, close } = await onTempFile(openSqliteDataStore, (opened) => opened)();
  return { store: data.webhooks, sessions: data.sessions, close };
});
deliveryFailureStoreContract(
  'sqlite',
  onTempFile(openSqliteDataStore, (data) => data.deliveryFailures),
);
automationRuleStoreContract('sqlite', async () => {
  const { store: data, close } = await onTempFile(openSqliteDataStore, (opened) => opened)();
  return { store: data.automationRules, sessions: data.sessions, close };
});
templateStoreContract('sqlite', async () => {
  const { store: data, close } = await onTempFile(openSqliteDataStore, (opened) => opened)();
  return { store: data.templates, sessions: data.sessions, close };
});

sendIdempotencyStoreContract('sqlite', async () => {
  const { store: data, close } = await onTempFile(openSqliteDataStore, (opened) => opened)();
  return { store: data.sendIdempotency, sessions: data.sessions, close };
});

sendPacingStoreContract('sqlite', async () => {
  const { store: data, close } = await onTempFile(openSqliteDataStore, (opened) => opened)();
  return { store: data.sendPacing, sessions: data.sessions, close };
});

messageChatsContract('sqlite', async () => {
  const { store: data, close } = await onTempFile(openSqliteDataStore, (opened) => opened)();
  return { messages: data.messages, sessions: data.sessions, close };
});

batchStoreContract('sqlite', async () => {
  const { store: data, close } = await onTempFile(openSqliteDataStore, (opened) => opened)();
  return { store: data.batches, sessions: data.sessions, close };
});

chatStoreContract(
  'sqlite',
  async () => {
    const { store: data, close } = await onTempFile(openSqliteDataStore, (opened) => opened)();
    return { store: data.chats, sessions: data.sessions, close };
  },
  { knowsSessions: true },
);

statusStoreContract(
  'sqlite',
  async () => {
    const { store: data, close } = await onTempFile(openSqliteDataStore, (opened) => opened)();
    return { store: data.statuses, outbox: data.outbox, sessions: data.sessions, close };
  },
  { knowsSessions: true },
);

describe('sqlite stores on disk', () => {
  let dir: string;
  beforeEach(() => {
    dir = tempDir();
  });
  afterEach(() => {
    fs.rmSync(dir, { recursive: true, force: true });
  });

  function migrationIds(file: string): string[] {
    const db = new Database(file, { readonly: true });
    try {
      return db
        .prepare('SELECT id FROM schema_migrations ORDER BY id')
        .all()
        .map((row) => (row as { id: string }).id);
    } finally {
      db.close();
    }
  }

  it('keeps main store data across a reopen and records each migration once', async () => {
    const file = path.join(dir, 'main.sqlite');
    const key = anApiKey({ allowedSessions: ['s1'] });
    const entry = anAuditEntry({ metadata: { a: 1 } });
    const first = openSqliteMainStore(file);
    await first.apiKeys.create(key);
    await first.audit.append([entry]);
    await first.close();

    const again = openSqliteMainStore(file);
    expect(await again.apiKeys.findByHash(key.keyHash)).toEqual(key);
    expect(await again.audit.query({}, { limit: 10, offset: 0 })).toEqual({ data: [entry], total: 1 });
    await again.close();
    expect(migrationIds(file)).toEqual(['0001_api_keys', '0002_audit_logs', '0003_api_key_allowed_chats']);
  });

  it('keeps data store data across a reopen and records each migration once', async () => {
    const file = path.join(dir, 'nested', 'data.sqlite');
    const session = aSession({ config: { custom: true } });
    const message = aMessage({ sessionId: session.id, metadata: { kept: true } });
    const first = openSqliteDataStore(file);
    await first.sessions.create(session);
    await first.fences.put(session.name, new Date(Date.now() + 60_000));
    await first.messages.insert(message);
    await first.close();

    const again = openSqliteDataStore(file);
    expect(await again.sessions.findById(session.id)).toEqual(session);
    expect(await again.fences.isActive(session.name, new Date())).toBe(true);
    expect(await again.messages.findById(session.id, message.id)).toEqual(message);
    await again.close();
    expect(migrationIds(file)).toEqual([
      '0001_sessions',
      '0002_teardown_fences',
      '0003_messages',
      '0004_webhooks',
      '0005_webhook_delivery_failures',
      '0006_automation_rules',
      '0007_event_outbox',
      '0008_templates',
      '0009_send_idempotency_keys',
      '0010_identity_aliases',
      '0011_send_pacing',
      '0012_message_batches',
      '0013_message_search',
      '0014_message_counts',
      '0015_chats',
      '0016_status_updates',
      '0017_message_stats',
      '0018_runtime_settings',
    ]);
  });

  it('treats re-running the migrations on a migrated file as a no-op', () => {
    const file = path.join(dir, 'both.sqlite');
    openSqliteMainStore(file).close();
    openSqliteDataStore(file).close();
    const db = openSqlite(file);
    try {
      expect(runMigrations(db, MAIN_STORE_MIGRATIONS)).toEqual([]);
      expect(runMigrations(db, DATA_STORE_MIGRATIONS)).toEqual([]);
    } finally {
      db.close();
    }
    expect(migrationIds(file)).toEqual([
      '0001_api_keys',
      '0001_sessions',
      '0002_audit_logs',
      '0002_teardown_fences',
      '0003_api_key_allowed_chats',
      '0003_messages',
      '0004_webhooks',
      '0005_webhook_delivery_failures',
      '0006_automation_rules',
      '0007_event_outbox',
      '0008_templates',
      '0009_send_idempotency_keys',
      '0010_identity_aliases',
      '0011_send_pacing',
      '0012_message_batches',
      '0013_message_search',
      '0014_message_counts',
      '0015_chats',
      '0016_status_updates',
      '0017_message_stats',
      '0018_runtime_settings',
    ]);
  });

  it('deletes the chats of a session with its row (cascade), and only those', async () => {
    const data = openSqliteDataStore(path.join(dir, 'data.sqlite'));
    const [gone, kept] = [aSession(), aSession()];
    for (const session of [gone, kept]) {
      await data.sessions.create(session);
      await data.chats.apply(session.id, [{ id: '15550001111@c.us' }]);
    }
    expect(await data.sessions.delete(gone.id)).toBe(true);
    expect(await data.chats.deleteBySession(gone.id)).toBe(0);
    expect(await data.chats.list(kept.id, { limit: 10, offset: 0 })).toHaveLength(1);
    await data.close();
  });

  it('reads corrupt JSON columns defensively, failing closed for allowlists', async () => {
    const file = path.join(dir, 'main.sqlite');
    const main = openSqliteMainStore(file);
    const key = anApiKey({ allowedIps: ['10.0.0.1'], allowedSessions: ['s1'] });
    await main.apiKeys.create(key);
    await main.audit.append([anAuditEntry({ metadata: { a: 1 } })]);
    const raw = new Database(file);
    raw.prepare("UPDATE api_keys SET allowed_ips = 'not json', allowed_sessions = '{\"a\":1}'").run();
    raw.prepare("UPDATE audit_logs SET metadata = '[oops'").run();
    raw.close();
    expect(await main.apiKeys.findById(key.id)).toMatchObject({ allowedIps: [], allowedSessions: [] });
    expect((await main.audit.query({}, { limit: 1, offset: 0 })).data[0]!.metadata).toBeNull();
    await main.close();

    const dataFile = path.join(dir, 'data.sqlite');
    const data = openSqliteDataStore(dataFile);
    const session = aSession({ config: { autoRejectCalls: true } });
    await data.sessions.create(session);
    const rawData = new Database(dataFile);
    const message = aMessage({ sessionId: session.id, metadata: { a: 1 } });
    await data.messages.insert(message);
    rawData.prepare("UPDATE sessions SET config = '42'").run();
    rawData.prepare("UPDATE messages SET metadata = '[1]'").run();
    rawData.close();
    expect((await data.sessions.findById(session.id))!.config).toEqual({});
    expect((await data.messages.findById(session.id, message.id))!.metadata).toBeNull();
    await data.close();
  });

  it('answers ping while open and rejects calls with UnavailableError after close', async () => {
    const main = openSqliteMainStore(path.join(dir, 'main.sqlite'));
    const data = openSqliteDataStore(path.join(dir, 'data.sqlite'));
    await expect(main.ping()).resolves.toBeUndefined();
    await expect(data.ping()).resolves.toBeUndefined();
    await main.close();
    await data.close();
    await data.close();
    await expect(main.ping()).rejects.toBeInstanceOf(UnavailableError);
    await expect(main.apiKeys.findById('x')).rejects.toBeInstanceOf(UnavailableError);
    await expect(data.sessions.findById('x')).rejects.toMatchObject({ code: 'DEPENDENCY_UNAVAILABLE' });
  });
});
