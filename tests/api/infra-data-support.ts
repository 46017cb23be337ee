/** What the data export and import suites share: seeding a gateway with one row of every kind, reading exports. */
import { expect } from '@jest/globals';
import type { TestGateway } from '#tests/helpers/test-gateway.js';
import { createSession, linkedSession } from './sessions-support.js';
import { HOOK_URL } from './webhooks-support.js';

type Row = Record<string, unknown>;

/** The tables of a document, by name. */
export interface ExportTables {
  sessions: Row[];
  apiKeys: Row[];
  webhooks: Row[];
  automationRules: Row[];
  templates: Row[];
  messages: Row[];
}

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
  return session.id;
}

/** Usage bookkeeping moves with every request a key makes, so rows are compared without it. */
const USAGE_FIELDS = ['lastUsedAt', 'usageCount'];

/** A document's tables as compared across deployments: rows by id, keys without usage fields, sorted. */
export function comparable(doc: ExportBody): ExportTables {
  const byId = (a: Record<string, unknown>, b: Record<string, unknown>) =>
    String(a.id).localeCompare(String(b.id));
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
