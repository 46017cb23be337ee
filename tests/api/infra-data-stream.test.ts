/**
 * The streamed data import: the body is read as it arrives under IMPORT_MAX_BYTES (413 IMPORT_TOO_LARGE past it,
 * however BODY_SIZE_LIMIT is set), any JSON layout of the document is read (pretty-printed, tables in another order
 * than an export's), a document cut short is refused naming where, and the spooled copy never outlives the request.
 */
import fs from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { startTestGateway, type TestGateway } from '#tests/helpers/test-gateway.js';
import { comparable, type ExportBody, exportOf, seed } from './infra-data-support.js';
import { createSession, expectError } from './sessions-support.js';
import { HOOK_HOST } from './webhooks-support.js';

const IMPORT_MAX_BYTES = 200_000;

describe('the streamed data import', () => {
  let gw: TestGateway;
  let first: ExportBody;

  beforeAll(async () => {
    gw = await startTestGateway({
      SSRF_ALLOWED_HOSTS: HOOK_HOST,
      IMPORT_MAX_BYTES: String(IMPORT_MAX_BYTES),
      BODY_SIZE_LIMIT: '50kb',
    });
    await seed(gw);
    first = (await exportOf(gw)).doc;
  });
  afterAll(() => gw.close());

  const importText = (rawBody: string) =>
    gw.request('POST', '/api/infra/import-data', {
      rawBody,
      headers: { 'content-type': 'application/json' },
    });

  /** No spooled body is left in the data folder (the embedded gateway spools there). */
  const noSpoolLeft = () =>
    expect(fs.readdirSync(gw.dataDir).filter((name) => name.endsWith('.spool'))).toEqual([]);

  it('reads any layout: pretty-printed, messages before sessions, past BODY_SIZE_LIMIT', async () => {
    const extra = await createSession(gw);
    const { messages, ...others } = first.tables;
    const reordered = { ...first, stopSessions: false, tables: { messages, ...others } };
    // Padding white space takes the body past BODY_SIZE_LIMIT but under IMPORT_MAX_BYTES.
    const pretty = JSON.stringify(reordered, null, '\t').replaceAll('\n', `\n${' '.repeat(60)}`);
    const text = `${pretty}${' \r\n'.repeat(30_000)}`;
    expect(Buffer.byteLength(text)).toBeGreaterThan(50 * 1024);
    expect(Buffer.byteLength(text)).toBeLessThan(IMPORT_MAX_BYTES);
    const res = await importText(text);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ imported: { sessions: 2, messages: messages.length } });
    const after = comparable((await exportOf(gw)).doc);
    expect(after.sessions.map((s) => s.id)).not.toContain(extra.id);
    for (const table of ['sessions', 'messages', 'webhooks', 'templates'] as const)
      expect(after[table]).toEqual(comparable(first)[table]);
    noSpoolLeft();
  });

  it('refuses a document cut short (400 naming where) and one over IMPORT_MAX_BYTES (413), changing nothing', async () => {
    const extra = await createSession(gw);
    const text = JSON.stringify(first);
    // The messages table comes last (a batch row has a `messages` field of its own earlier on).
    const cut = text.slice(0, text.lastIndexOf('"messages":[') + 40);
    const truncated = expectError(await importText(cut), 400, 'INVALID_JSON');
    expect(truncated.message).toContain('ends early, inside tables.messages[0]');
    const padded = `${' '.repeat(IMPORT_MAX_BYTES)}${text}`;
    const tooLarge = expectError(await importText(padded), 413, 'IMPORT_TOO_LARGE');
    expect(tooLarge.message).toBe(`Request body exceeds the ${IMPORT_MAX_BYTES}-byte limit`);
    const sessions = (await exportOf(gw)).doc.tables.sessions.map((s) => s.id);
    expect(sessions).toContain(extra.id);
    noSpoolLeft();
  });

  it('refuses a repeated table and a body that is not JSON by its media type', async () => {
    const text = JSON.stringify(first);
    // The messages table, the document's last (a batch row has a `messages` field of its own earlier on), twice.
    const at = text.lastIndexOf('"messages":[');
    const twice = `${text.slice(0, at)}"messages":${JSON.stringify(first.tables.messages)},${text.slice(at)}`;
    const repeated = expectError(await importText(twice), 400, 'IMPORT_INVALID');
    expect(repeated.message).toContain('appears twice');
    const res = await gw.request('POST', '/api/infra/import-data', {
      rawBody: text,
      headers: { 'content-type': 'text/plain' },
    });
    expectError(res, 415, 'UNSUPPORTED_MEDIA_TYPE');
    noSpoolLeft();
  });
});
