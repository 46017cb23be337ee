/**
 * Every store contract against the DynamoDB adapters on DynamoDB Local (one JVM per file). Each opened store gets
 * fresh tables under a unique prefix, deleted again on close, so tests never see each other's items.
 */
import { DeleteTableCommand, type DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { messageKey } from '#shared/adapters/dynamodb/dynamodb-message-items.js';
import { openDynamoDbDataStore, openDynamoDbMainStore } from '#shared/adapters/dynamodb/dynamodb-stores.js';
import { createTables, tableNames } from '#shared/adapters/dynamodb/dynamodb-tables.js';
import { parseSearchQuery } from '#shared/domain/message-search.js';
import { UnavailableError } from '#shared/errors/app-error.js';
import type { DataStore, MainStore } from '#shared/ports/stores.port.js';
import { apiKeyStoreContract } from '#tests/contract/api-key-store.contract.js';
import { auditLogStoreContract } from '#tests/contract/audit-log-store.contract.js';
import { automationRuleStoreContract } from '#tests/contract/automation-rule-store.contract.js';
import { batchStoreContract } from '#tests/contract/batch-store.contract.js';
import { chatStoreContract } from '#tests/contract/chat-store.contract.js';
import { deliveryFailureStoreContract } from '#tests/contract/delivery-failure-store.contract.js';
import { eventOutboxContract } from '#tests/contract/event-outbox.contract.js';
import { identityStoreContract } from '#tests/contract/identity-store.contract.js';
import { messageChangesContract } from '#tests/contract/message-changes.contract.js';
import { messageChatsContract } from '#tests/contract/message-chats.contract.js';
import { messageReadsContract } from '#tests/contract/message-reads.contract.js';
import { messageScanContract } from '#tests/contract/message-scan.contract.js';
import { messageStoreContract } from '#tests/contract/message-store.contract.js';
import { sendIdempotencyStoreContract } from '#tests/contract/send-idempotency-store.contract.js';
import { sendPacingStoreContract } from '#tests/contract/send-pacing-store.contract.js';
import { sessionStoreContract, teardownFenceStoreContract } from '#tests/contract/session-store.contract.js';
import { statusStoreContract } from '#tests/contract/status-store.contract.js';
import { templateStoreContract } from '#tests/contract/template-store.contract.js';
import { webhookStoreContract } from '#tests/contract/webhook-store.contract.js';
import {
  aBatch,
  aMessage,
  anApiKey,
  anAutomationRule,
  aSession,
  aTemplate,
  aWebhook,
  T0,
} from '#tests/helpers/builders.js';
import { useDynamoDbLocal } from './dynamodb-local.js';

const dynamo = useDynamoDbLocal();
let client: DynamoDBClient;
let prefixes = 0;

beforeAll(() => {
  client = dynamo.client;
});

/** Fresh tables under a new prefix; `drop` deletes them. */
async function freshTables(): Promise<{ tablePrefix: string; drop: () => Promise<void> }> {
  prefixes += 1;
  const tablePrefix = `t${prefixes}_${process.pid}_`;
  await createTables(client, tablePrefix);
  const names = tableNames(tablePrefix);
  return {
    tablePrefix,
    drop: async () => {
      await Promise.all(
        [names.data, names.main].map((TableName) => client.send(new DeleteTableCommand({ TableName }))),
      );
    },
  };
}

function opened<S extends MainStore | DataStore, T>(
  openStore: (options: { client: DynamoDBClient; tablePrefix: string }) => S,
  pick: (store: S) => T,
) {
  return async () => {
    const { tablePrefix, drop } = await freshTables();
    const store = openStore({ client, tablePrefix });
    return {
      store: pick(store),
      close: async () => {
        await store.close();
        await drop();
      },
    };
  };
}

apiKeyStoreContract(
  'dynamodb',
  opened(openDynamoDbMainStore, (main) => main.apiKeys),
);
auditLogStoreContract(
  'dynamodb',
  opened(openDynamoDbMainStore, (main) => main.audit),
);
sessionStoreContract(
  'dynamodb',
  opened(openDynamoDbDataStore, (data) => data.sessions),
);
teardownFenceStoreContract(
  'dynamodb',
  opened(openDynamoDbDataStore, (data) => data.fences),
);
messageStoreContract('dynamodb', async () => {
  const { store: data, close } = await opened(openDynamoDbDataStore, (store) => store)();
  return { store: data.messages, sessions: data.sessions, close };
});

eventOutboxContract('dynamodb', async () => {
  const { store: data, close } = await opened(openDynamoDbDataStore, (store) => store)();
  return { outbox: data.outbox, messages: data.messages, sessions: data.sessions, close };
});

messageScanContract('dynamodb', async () => {
  const { store: data, close } = await opened(openDynamoDbDataStore, (store) => store)();
  return { store: data.messages, sessions: data.sessions, close };
});

messageReadsContract('dynamodb', async () => {
  const { store: data, close } = await opened(openDynamoDbDataStore, (store) => store)();
  return { store: data.messages, sessions: data.sessions, close };
});

messageChangesContract('dynamodb', async () => {
  const { store: data, close } = await opened(openDynamoDbDataStore, (store) => store)();
  return { outbox: data.outbox, messages: data.messages, sessions: data.sessions, close };
});

identityStoreContract('dynamodb', async () => {
  const { store: data, close } = await opened(openDynamoDbDataStore, (store) => store)();
  return { store: data.identities, sessions: data.sessions, close };
});

webhookStoreContract('dynamodb', async () => {
  const { store: data, close } = await opened(openDynamoDbDataStore, (store) => store)();
  return { store: data.webhooks, sessions: data.sessions, close };
});
deliveryFailureStoreContract(
  'dynamodb',
  opened(openDynamoDbDataStore, (data) => data.deliveryFailures),
);
automationRuleStoreContract('dynamodb', async () => {
  const { store: data, close } = await opened(openDynamoDbDataStore, (store) => store)();
  return { store: data.automationRules, sessions: data.sessions, close };
});
templateStoreContract('dynamodb', async () => {
  const { store: data, close } = await opened(openDynamoDbDataStore, (store) => store)();
  return { store: data.templates, sessions: data.sessions, close };
});

sendIdempotencyStoreContract('dynamodb', async () => {
  const { store: data, close } = await opened(openDynamoDbDataStore, (store) => store)();
  return { store: data.sendIdempotency, sessions: data.sessions, close };
});

sendPacingStoreContract('dynamodb', async () => {
  const { store: data, close } = await opened(openDynamoDbDataStore, (store) => store)();
  return { store: data.sendPacing, sessions: data.sessions, close };
});

messageChatsContract('dynamodb', async () => {
  const { store: data, close } = await opened(openDynamoDbDataStore, (store) => store)();
  return { messages: data.messages, sessions: data.sessions, close };
});

batchStoreContract('dynamodb', async () => {
  const { store: data, close } = await opened(openDynamoDbDataStore, (store) => store)();
  return { store: data.batches, sessions: data.sessions, close };
});

chatStoreContract(
  'dynamodb',
  async () => {
    const { store: data, close } = await opened(openDynamoDbDataStore, (store) => store)();
    return { store: data.chats, sessions: data.sessions, close };
  },
  { knowsSessions: true },
);

statusStoreContract(
  'dynamodb',
  async () => {
    const { store: data, close } = await opened(openDynamoDbDataStore, (store) => store)();
    return { store: data.statuses, outbox: data.outbox, sessions: data.sessions, close };
  },
  { knowsSessions: true },
);

describe('dynamodb stores', () => {
  it('rejects a message, webhook, rule, template or batch of an unknown session with NotFoundError, not a retryable 503', async () => {
    const { store: data, close } = await opened(openDynamoDbDataStore, (store) => store)();
    try {
      const unknown = '00000000-0000-4000-8000-000000000000';
      const notFound = { status: 404, code: 'NOT_FOUND' };
      await expect(data.messages.insert(aMessage({ sessionId: unknown }))).rejects.toMatchObject(notFound);
      const cap = { maxPerSession: 1 };
      await expect(data.webhooks.create(aWebhook({ sessionId: unknown }), cap)).rejects.toMatchObject(
        notFound,
      );
      await expect(
        data.automationRules.create(anAutomationRule({ sessionId: unknown }), cap),
      ).rejects.toMatchObject(notFound);
      await expect(data.templates.create(aTemplate({ sessionId: unknown }), cap)).rejects.toMatchObject(
        notFound,
      );
      await expect(data.batches.create(aBatch({ sessionId: unknown }))).rejects.toMatchObject(notFound);
      expect(await data.batches.countUnfinished()).toBe(0);
      const session = aSession();
      await data.sessions.create(session);
      expect(await data.messages.insert(aMessage({ sessionId: session.id }))).toBe(true);
    } finally {
      await close();
    }
  });

  it('answers ping while open, and UnavailableError after close or for missing tables', async () => {
    const { store: main, close } = await opened(openDynamoDbMainStore, (store) => store)();
    await expect(main.ping()).resolves.toBeUndefined();
    await close();
    await expect(main.ping()).rejects.toBeInstanceOf(UnavailableError);
    const missing = openDynamoDbDataStore({ client, tablePrefix: 'never_created_' });
    await expect(missing.ping()).rejects.toMatchObject({ code: 'DEPENDENCY_UNAVAILABLE' });
    await expect(missing.sessions.findById('x')).rejects.toBeInstanceOf(UnavailableError);
  });

  it('keeps one usable admin when two admins are deleted concurrently (optimistic guard)', async () => {
    const { store: main, close } = await opened(openDynamoDbMainStore, (store) => store)();
    try {
      const a = anApiKey({ role: 'admin' });
      const b = anApiKey({ role: 'admin' });
      await main.apiKeys.create(a);
      await main.apiKeys.create(b);
      const results = await Promise.all([
        main.apiKeys.applyGuarded(a.id, { kind: 'delete' }, T0),
        main.apiKeys.applyGuarded(b.id, { kind: 'delete' }, T0),
      ]);
      expect(results.map((result) => result.outcome).sort()).toEqual(['applied', 'last_admin']);
      expect(await main.apiKeys.count()).toBe(1);
    } finally {
      await close();
    }
  });

  it('stores one row when the same network id is inserted concurrently', async () => {
    const { store: data, close } = await opened(openDynamoDbDataStore, (store) => store)();
    try {
      const session = aSession();
      await data.sessions.create(session);
      const inserts = [1, 2, 3].map(() =>
        data.messages.insert(aMessage({ sessionId: session.id, waMessageId: 'WA1' })),
      );
      expect((await Promise.all(inserts)).filter(Boolean)).toHaveLength(1);
      expect((await data.messages.list({ sessionId: session.id }, { limit: 10, offset: 0 })).total).toBe(1);
    } finally {
      await close();
    }
  });

  it('searches only the newest SEARCH_SCAN_LIMIT items of the history index and says truncated', async () => {
    const { tablePrefix, drop } = await freshTables();
    const data = openDynamoDbDataStore({ client, tablePrefix, searchScanLimit: 3 });
    try {
      const session = aSession();
      await data.sessions.create(session);
      const bodies = ['needle 1', 'needle 2', 'needle 3', 'needle 4', 'hay', 'needle 5', 'hay'];
      for (const [i, body] of bodies.entries()) {
        await data.messages.insert(aMessage({ sessionId: session.id, body, timestamp: i + 1 }));
      }
      const search = { sessionId: session.id, terms: parseSearchQuery('needle'), maxMatches: 1000 };
      const page = { limit: 10, offset: 0 };
      const bounded = await data.messages.search(search, page);
      expect(bounded.messages.map((m) => m.body)).toEqual(['needle 5']);
      expect(bounded).toMatchObject({ total: 1, truncated: true });
      const whole = openDynamoDbDataStore({ client, tablePrefix, searchScanLimit: 8 });
      expect(await whole.messages.search(search, page)).toMatchObject({ total: 5, truncated: false });
      const chat = await data.messages.search({ ...search, chatId: '4915112345678@c.us' }, page);
      expect(chat).toMatchObject({ total: 1, truncated: true });
    } finally {
      await data.close();
      await drop();
    }
  });

  it('finds a message stored before search existed (no searchText) by its body', async () => {
    const { tablePrefix, drop } = await freshTables();
    const data = openDynamoDbDataStore({ client, tablePrefix });
    try {
      const session = aSession();
      await data.sessions.create(session);
      const legacy = aMessage({ sessionId: session.id, body: 'Old Café note' });
      const empty = aMessage({ sessionId: session.id, body: null, type: 'image' });
      for (const message of [legacy, empty]) {
        await data.messages.insert(message);
        await DynamoDBDocumentClient.from(client).send(
          new UpdateCommand({
            TableName: tableNames(tablePrefix).data,
            Key: messageKey(message.id),
            UpdateExpression: 'REMOVE searchText',
          }),
        );
      }
      const search = { sessionId: session.id, terms: parseSearchQuery('cafe note'), maxMatches: 10 };
      const found = await data.messages.search(search, { limit: 10, offset: 0 });
      expect(found).toEqual({ messages: [legacy], total: 1, truncated: false });
    } finally {
      await data.close();
      await drop();
    }
  });
});
