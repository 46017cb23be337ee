/**
 * GET /api/infra/export-data and POST /api/infra/import-data on one gateway, in each deployment mode: the document's
 * envelope and redactions, refusals (role, scope, malformed or partial documents, running sessions) that change
 * nothing, a replacement that restores every row, and the audits.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { EXPORT_TABLES } from '#shared/domain/data-export.js';
import { startTestGateway, type TestGateway } from '#tests/helpers/test-gateway.js';
import {
  comparable,
  type ExportBody,
  exportOf,
  importInto,
  PROXY_PASSWORD,
  seed,
  WEBHOOK_SECRET,
} from './infra-data-support.js';
import { createSession, expectError, startTo } from './sessions-support.js';
import { HOOK_HOST } from './webhooks-support.js';

describe('data export and import', () => {
  let gw: TestGateway;
  let sessionId: string;
  let first: ExportBody;

  beforeAll(async () => {
    gw = await startTestGateway({ SSRF_ALLOWED_HOSTS: HOOK_HOST });
    sessionId = await seed(gw);
    first = (await exportOf(gw)).doc;
  });
  afterAll(() => gw.close());

  it('exports every table in the versioned envelope, one row per line, without secrets', async () => {
    const { doc, text } = await exportOf(gw);
    expect(doc).toMatchObject({ format: 'waygate-data-export', formatVersion: 1, mode: expect.any(String) });
    expect(Object.keys(doc.tables)).toEqual([...EXPORT_TABLES]);
    expect(doc.tables.sessions).toHaveLength(2);
    expect(doc.tables.messages.filter((m) => m.sessionId === sessionId)).toHaveLength(3);
    expect(doc.tables.webhooks[0]).toMatchObject({ secret: null, headers: {} });
    expect(doc.tables.automationRules).toHaveLength(1);
    expect(doc.tables.templates).toHaveLength(1);
    expect(doc.tables.apiKeys.length).toBeGreaterThanOrEqual(2);
    for (const secret of [PROXY_PASSWORD, WEBHOOK_SECRET, gw.adminKey]) expect(text).not.toContain(secret);
    const proxied = doc.tables.sessions.find((s) => s.proxyUrl !== null);
    expect(proxied?.proxyUrl).toBe('http://proxy.example:3128/');
    // Every message is a line of its own.
    const lines = text.split('\n').filter((line) => line.includes('"waMessageId"'));
    expect(lines).toHaveLength(doc.tables.messages.length);
  });

  it('refuses keys that are not admin, session-scoped admin keys and no key', async () => {
    const viewer = await gw.createKey({ name: 'infra viewer', role: 'viewer' });
    const operator = await gw.createKey({ name: 'infra operator', role: 'operator' });
    const scoped = await gw.createKey({ name: 'infra scoped', role: 'admin', allowedSessions: [sessionId] });
    for (const [method, path] of [
      ['GET', '/api/infra/export-data'],
      ['POST', '/api/infra/import-data'],
    ] as const) {
      const body = method === 'POST' ? first : undefined;
      for (const key of [viewer.key, operator.key])
        expectError(await gw.request(method, path, { key, body }), 403, 'FORBIDDEN_ROLE');
      expectError(await gw.request(method, path, { key: scoped.key, body }), 403, 'FORBIDDEN_SCOPED_KEY');
      expectError(await gw.request(method, path, { key: null, body }), 401, 'UNAUTHORIZED');
    }
  });

  it('refuses a malformed or partial document whole, naming the first bad rows, and changes nothing', async () => {
    const before = comparable((await exportOf(gw)).doc);
    const badMessage = { ...first.tables.messages[1], status: 'teleported' };
    const outboxOrphan = crypto.randomUUID();
    const orphan = {
      ...first.tables.templates[0],
      id: '11111111-1111-4111-8111-111111111111',
      sessionId: crypto.randomUUID(),
    };
    const entry = first.tables.outbox[0] as { event: Record<string, unknown> };
    const event = entry.event;
    const bad = {
      ...first,
      tables: {
        ...first.tables,
        // Rows before the bad ones would be written first by a naive import: they must not be.
        sessions: first.tables.sessions.slice(0, 1),
        messages: [first.tables.messages[0], badMessage],
        templates: [...first.tables.templates, orphan],
        // An outbox entry names its session through its event: one of a session not in the document is refused too
        // (a session of its own: the check names the first row naming each unknown session, once).
        outbox: [{ ...entry, sessionId: outboxOrphan, event: { ...event, sessionId: outboxOrphan } }],
      },
    };
    const res = await importInto(gw, bad);
    const body = expectError(res, 400, 'IMPORT_INVALID');
    const problems = (body.details as unknown as { problems: Record<string, unknown>[] }).problems;
    expect(problems).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ table: 'messages', index: 1, path: 'status' }),
        expect.objectContaining({ table: 'templates', index: 1, path: 'sessionId' }),
        expect.objectContaining({ table: 'outbox', index: 0, path: 'sessionId' }),
      ]),
    );
    expect(problems.length).toBeGreaterThanOrEqual(2);
    expectError(await importInto(gw, { ...first, formatVersion: 99 }), 400, 'VALIDATION_FAILED');
    expectError(await importInto(gw, { tables: first.tables }), 400, 'VALIDATION_FAILED');
    expect(comparable((await exportOf(gw)).doc)).toEqual(before);
  });

  it('replaces the data with the document: every row as exported', async () => {
    const extra = await createSession(gw);
    const res = await importInto(gw, first);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      imported: { sessions: 2, messages: first.tables.messages.length, webhooks: 1 },
      stoppedSessions: [],
    });
    const after = comparable((await exportOf(gw)).doc);
    const expected = comparable(first);
    expect(after.sessions.map((s) => s.id)).not.toContain(extra.id);
    const tables = ['sessions', 'webhooks', 'automationRules', 'templates', 'messages'] as const;
    for (const table of [...tables, 'batches', 'idempotencyKeys', 'sendPacing', 'outbox'] as const)
      expect(after[table]).toEqual(expected[table]);
    expect(after.apiKeys).toEqual(expect.arrayContaining(expected.apiKeys));
  });

  it('refuses while a session runs (409) unless told to stop it; audits both directions', async () => {
    await startTo(gw, sessionId, 'ready');
    const refused = expectError(await importInto(gw, first), 409, 'IMPORT_SESSIONS_RUNNING');
    expect(refused.details).toMatchObject({ sessions: [sessionId] });
    const res = await importInto(gw, first, { stopSessions: true });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ stoppedSessions: [sessionId] });
    const audit = await gw.request('GET', '/api/audit?limit=200');
    const actions = (audit.body.data as { action: string; sessionId: string | null }[]).map((e) => e.action);
    expect(actions).toEqual(
      expect.arrayContaining(['infra_data_exported', 'infra_data_imported', 'session_stopped']),
    );
  });
});
