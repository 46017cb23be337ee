/** Runs every store contract against the in-memory fakes, plus their lifecycle. */

import { CachingIdentityStore } from '#shared/adapters/caching/caching-identity-store.js';
import { createMemoryDataStore, createMemoryMainStore } from '#shared/adapters/memory/memory-stores.js';
import { UnavailableError } from '#shared/errors/app-error.js';
import { aMessage } from '#tests/helpers/builders.js';
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

apiKeyStoreContract('memory', async () => {
  const main = createMemoryMainStore();
  return { store: main.apiKeys, close: () => main.close() };
});

auditLogStoreContract('memory', async () => {
  const main = createMemoryMainStore();
  return { store: main.audit, close: () => main.close() };
});

sessionStoreContract('memory', async () => {
  const data = createMemoryDataStore();
  return { store: data.sessions, close: () => data.close() };
});

teardownFenceStoreContract('memory', async () => {
  const data = createMemoryDataStore();
  return { store: data.fences, close: () => data.close() };
});

messageStoreContract('memory', async () => {
  const data = createMemoryDataStore();
  return { store: data.messages, sessions: data.sessions, close: () => data.close() };
});

webhookStoreContract('memory', async () => {
  const data = createMemoryDataStore();
  return { store: data.webhooks, sessions: data.sessions, close: () => data.close() };
});

deliveryFailureStoreContract('memory', async () => {
  const data = createMemoryDataStore();
  return { store: data.deliveryFailures, close: () => data.close() };
});

eventOutboxContract('memory', async () => {
  const data = createMemoryDataStore();
  return { outbox: data.outbox, messages: data.messages, sessions: data.sessions, close: () => data.close() };
});

messageScanContract('memory', async () => {
  const data = createMemoryDataStore();
  return { store: data.messages, sessions: data.sessions, close: () => data.close() };
});

messageReadsContract('memory', async () => {
  const data = createMemoryDataStore();
  return { store: data.messages, sessions: data.sessions, close: () => data.close() };
});

messageChangesContract('memory', async () => {
  const data = createMemoryDataStore();
  return { outbox: data.outbox, messages: data.messages, sessions: data.sessions, close: () => data.close() };
});

identityStoreContract('memory', async () => {
  const data = createMemoryDataStore();
  return { store: data.identities, sessions: data.sessions, close: () => data.close() };
});

// The host's read-through cache over a store: every read the contract makes after a link must see the link.
identityStoreContract('caching over memory', async () => {
  const data = createMemoryDataStore();
  return {
    store: new CachingIdentityStore(data.identities, 60_000),
    sessions: data.sessions,
    close: () => data.close(),
  };
});

automationRuleStoreContract('memory', async () => {
  const data = createMemoryDataStore();
  return { store: data.automationRules, sessions: data.sessions, close: () => data.close() };
});

templateStoreContract('memory', async () => {
  const data = createMemoryDataStore();
  return { store: data.templates, sessions: data.sessions, close: () => data.close() };
});

sendIdempotencyStoreContract('memory', async () => {
  const data = createMemoryDataStore();
  return { store: data.sendIdempotency, sessions: data.sessions, close: () => data.close() };
});

sendPacingStoreContract('memory', async () => {
  const data = createMemoryDataStore();
  return { store: data.sendPacing, sessions: data.sessions, close: () => data.close() };
});

messageChatsContract('memory', async () => {
  const data = createMemoryDataStore();
  return { messages: data.messages, sessions: data.sessions, close: () => data.close() };
});

batchStoreContract('memory', async () => {
  const data = createMemoryDataStore();
  return { store: data.batches, sessions: data.sessions, close: () => data.close() };
});

// The memory fake takes chats of any session id: it keeps no link to the session store, like the other fakes.
chatStoreContract(
  'memory',
  async () => {
    const data = createMemoryDataStore();
    return { store: data.chats, sessions: data.sessions, close: () => data.close() };
  },
  { knowsSessions: false },
);

statusStoreContract(
  'memory',
  async () => {
    const data = createMemoryDataStore();
    return { store: data.statuses, outbox: data.outbox, sessions: data.sessions, close: () => data.close() };
  },
  { knowsSessions: false },
);

describe('memory stores lifecycle', () => {
  it('answers ping while open and rejects it with UnavailableError after close', async () => {
    for (const store of [createMemoryMainStore(), createMemoryDataStore()]) {
      await expect(store.ping()).resolves.toBeUndefined();
      await store.close();
      await expect(store.ping()).rejects.toBeInstanceOf(UnavailableError);
    }
  });

  it('gives every created store its own empty state', async () => {
    const first = createMemoryMainStore();
    await first.audit.append([]);
    expect(await createMemoryMainStore().apiKeys.count()).toBe(0);
    expect(await createMemoryDataStore().sessions.list({}, { limit: 10, offset: 0 })).toEqual([]);
    await createMemoryDataStore().messages.insert(aMessage({ sessionId: 's1' }));
    expect(
      await createMemoryDataStore().messages.list({ sessionId: 's1' }, { limit: 10, offset: 0 }),
    ).toEqual({
      messages: [],
      total: 0,
    });
  });
});
