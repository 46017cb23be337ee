/** What the data export and import suites share: seeding a gateway with one row of every kind, reading exports. */
import { expect } from '@jest/globals';
import { EXPORT_TABLES } from '#shared/domain/data-export.js';
import { outboxEntry } from '#shared/ports/event-outbox.port.js';
import { aBatch, aDeliveryFailure } from '#tests/helpers/builders.js';
import { withGatewayDataStore } from '#tests/helpers/gateway-data-store.js';
import type { TestGateway } from '#tests/helpers/test-gateway.js';
import { createSession, linkedSession } from './sessions-support.js';
import { HOOK_URL } from './webhooks-support.js';

type Row = Record<string, unknown>;

/** The tables of a document, by name. */
export interface ExportTables {
  sessions: Row[];
  apiKeys: Row[];
  settings: Row[];
  webhooks: Row[];
  automationRules: Row[];
  templates: Row[];
  chats: Row[];
  identities: Row[];
  statuses: Row[];
  deliveryFailures: Row[];
  batches: Row[];
  idempotencyKeys: Row[];
  sendPacing: Row[];
  outbox: Row[];
  messages: Row[];
}

/** The data tables (every table but the API keys, which an import adds beside the target's own). */
export const DATA_TABLES = EXPORT_TABLES.filter((table) => table !== 'apiKeys');

/** The export document as the tests read it. */
export interface ExportBody {
  format: string;
  formatVersion: number;
  gatewayVersion: string;
  mode: string;
  exportedAt: string;
  tables: ExportTables;
}

export const PROXY_PASSWORD = 'pr0xy-s3cret';
export const WEBHOOK_SECRET = 'a-webhook-secret-of-some-length';

/** GET /api/infra/export-data as the admin, parsed (answers the raw text too). */
export async function exportOf(gw: TestGateway): Promise<{ doc: ExportBody; text: string }> {
  const res = await gw.request('GET', '/api/infra/export-data');
  if (res.status !== 200) throw new Error(`export failed: ${res.status} ${res.text.slice(0, 300)}`);
  expect(res.headers.get('content-type')).toMatch(/^application\/json/);
  return { doc: JSON.parse(res.text) as ExportBody, text: res.text };
}

/** POST /api/infra/import-data as the admin. */
export function importInto(gw: TestGateway, doc: unknown, extra: Record<string, unknown> = {}) {
  return gw.request('POST', '/api/infra/import-data', {
    body: { ...(doc as Record<string, unknown>), ...extra },
  });
}

/**
 * One row of every table: a linked session (stopped again) with three messages, a webhook with a secret and a
 * header, a rule, a template; a second session with a proxy that has credentials; a viewer key. Answers the linked
 * session's id.
 */
export async function seed(gw: TestGateway): Promise<string> {
  const session = await linkedSession(gw, {}, { phone: '15550006060', pushName: 'Exporter' });
  for (const text of ['one', 'two', 'three']) {
    const res = await gw.request('POST', `/api/sessions/${session.id}/messages/send-text`, {
      body: { chatId: '15557770001@c.us', text },
    });
    if (res.status !== 201) throw new Error(`send failed: ${res.status} ${res.text}`);
  }
  const base = `/api/sessions/${session.id}`;
  const writes = [
    [
      'webhooks',
      { url: HOOK_URL, events: ['message.received'], secret: WEBHOOK_SECRET, headers: { 'x-t': 'h' } },
    ],
    ['automation-rules', { name: 'export rule', replyText: 'Thanks' }],
    ['templates', { name: 'export-template', body: 'Hi {{name}}' }],
  ] as const;
  for (const [path, body] of writes) {
    const res = await gw.request('POST', `${base}/${path}`, { body });
    if (res.status !== 201) throw new Error(`${path} failed: ${res.status} ${res.text}`);
  }
  const stop = await gw.request('POST', `${base}/stop`);
  if (stop.status !== 200) throw new Error(`stop failed: ${stop.status} ${stop.text}`);
  await createSession(gw, {
    proxyUrl: `http://user:${PROXY_PASSWORD}@proxy.example:3128`,
    proxyType: 'http',
  });
  await gw.createKey({ name: 'exported viewer', role: 'viewer' });
  const config = await gw.request('PUT', '/api/infra/config', {
    body: { AUDIT_RETENTION_DAYS: 4321 },
  });
  if (config.status !== 200) throw new Error(`config failed: ${config.status} ${config.text}`);
  await seedStoreRows(gw, session.id);
  return session.id;
}

/**
 * What no route writes on the test engine, into the store: aliases, a contact's status, a delivery failure, and the
 * sends' bookkeeping: a finished batch (an unfinished one would run once a test starts the session), a live
 * Idempotency-Key, pacing counters with an open breaker, and an outbox entry claimed until an hour from now (so no
 * sweep relays it while the suite runs; an unclaimed entry's move is the outbox contract's).
 */
async function seedStoreRows(gw: TestGateway, sessionId: string): Promise<void> {
  const hooks = await gw.request('GET', `/api/sessions/${sessionId}/webhooks`);
  const webhookId = String((hooks.body as { id: string }[])[0]?.id);
  const postedAt = Date.now() - 60_000;
  await withGatewayDataStore(gw, async (data) => {
    await data.identities.link(sessionId, { lid: '99990006060@lid', phone: '15557770001@c.us' });
    await data.chats.apply(sessionId, [
      { id: '15557770002@c.us', name: 'Archived', archived: true, pinnedAt: 5 },
    ]);
    await data.statuses.insert({
      sessionId,
      statusId: 'STATUS-EXPORT-1',
      contactId: '15557770001@c.us',
      pushName: 'Poster',
      fromMe: false,
      type: 'text',
      text: 'a status',
      caption: null,
      backgroundColor: '#112233',
      font: 1,
      media: null,
      mediaPath: null,
      recipients: [],
      postedAt,
      expiresAt: postedAt + 24 * 60 * 60 * 1000,
    });
    await data.deliveryFailures.insert(aDeliveryFailure({ sessionId, webhookId }));
    const done = aBatch({ sessionId, batchId: 'export-batch' }, 1);
    await data.batches.create({
      ...done,
      status: 'completed',
      progress: { ...done.progress, pending: 0, sent: 1 },
      results: [{ chatId: '15550001000@c.us', status: 'sent', messageId: 'BATCH-SENT-1' }],
      currentIndex: 1,
      startedAt: done.createdAt,
      completedAt: done.createdAt,
    });
    const now = new Date();
    await data.sendIdempotency.claim(
      { sessionId, key: 'export-key-1', requestHash: 'hash-1', messageId: 'message-of-key-1' },
      now,
    );
    await data.sendPacing.restore({
      sessionId,
      day: now.toISOString().slice(0, 10),
      sent: 3,
      cold: 1,
      failures: 2,
      openUntil: now.getTime() + 60 * 60 * 1000,
    });
    const event = {
      event: 'session.status' as const,
      sessionId,
      occurredAt: now.toISOString(),
      data: { sessionId, status: 'disconnected' as const },
    };
    const claimedAt = new Date(now.getTime() + 60 * 60 * 1000).toISOString();
    await data.outbox.restore([{ ...outboxEntry(event, now), claimedAt }]);
  });
}

/** Usage bookkeeping moves with every request a key makes, so rows are compared without it. */
const USAGE_FIELDS = ['lastUsedAt', 'usageCount'];

/** A document's tables as compared across deployments: rows sorted, keys without usage fields, sorted. */
export function comparable(doc: ExportBody): ExportTables {
  // Rows without an id of their own (aliases, statuses, settings) sort by their whole text.
  const byId = (a: Record<string, unknown>, b: Record<string, unknown>) =>
    JSON.stringify(a).localeCompare(JSON.stringify(b));
  return Object.fromEntries(
    (Object.entries(doc.tables) as [string, Row[]][]).map(([table, rows]) => [
      table,
      rows
        .map((row: Row) =>
          table === 'apiKeys'
            ? Object.fromEntries(Object.entries(row).filter(([field]) => !USAGE_FIELDS.includes(field)))
            : row,
        )
        .sort(byId),
    ]),
  ) as unknown as ExportTables;
}
