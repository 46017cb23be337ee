/**
 * An export moves between deployment modes: embedded → the project's target (the aws mode in api-aws and, through
 * serverless offline's buffered Lambda answers, api-offline; embedded in api) → a fresh embedded gateway, every row
 * equal at each step. Webhook secrets and headers and proxy credentials are not in the first document, so they are
 * not in the last either (README, "Moving data").
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { startEmbeddedGateway, startTestGateway, type TestGateway } from '#tests/helpers/test-gateway.js';
import {
  comparable,
  DATA_TABLES,
  type ExportBody,
  type ExportTables,
  exportOf,
  importInto,
  seed,
} from './infra-data-support.js';
import { HOOK_HOST } from './webhooks-support.js';

/** Every row of `from` is in `to` as it is: the data tables whole, the keys among the target's own. */
function expectSameRows(to: ExportBody, from: ExportBody): void {
  const a: ExportTables = comparable(to);
  const b: ExportTables = comparable(from);
  for (const table of DATA_TABLES) expect({ table, rows: a[table] }).toEqual({ table, rows: b[table] });
  expect(a.apiKeys).toEqual(expect.arrayContaining(b.apiKeys));
}

describe('an export moves between deployment modes', () => {
  const gateways: TestGateway[] = [];
  let source: TestGateway;

  beforeAll(async () => {
    source = await startEmbeddedGateway({ SSRF_ALLOWED_HOSTS: HOOK_HOST });
    gateways.push(source);
    await seed(source);
  });
  afterAll(() => Promise.all(gateways.map((gw) => gw.close())));

  it('embedded → target → embedded, every row equal', async () => {
    const first = (await exportOf(source)).doc;
    expect(first.mode).toBe('embedded');
    expect(first.tables.messages.length).toBeGreaterThanOrEqual(3);
    for (const table of DATA_TABLES)
      expect({ table, rows: first.tables[table].length > 0 }).toEqual({ table, rows: true });
    const stats = await source.request('GET', '/api/stats/messages');

    const target = await startTestGateway({ SSRF_ALLOWED_HOSTS: HOOK_HOST });
    gateways.push(target);
    const into = await importInto(target, first);
    expect(into.status).toBe(200);
    const second = (await exportOf(target)).doc;
    expectSameRows(second, first);

    const back = await startEmbeddedGateway({ SSRF_ALLOWED_HOSTS: HOOK_HOST });
    gateways.push(back);
    expect((await importInto(back, second)).status).toBe(200);
    const third = (await exportOf(back)).doc;
    expectSameRows(third, first);
    // The statistics are rebuilt from the imported messages: what the source showed.
    expect((await back.request('GET', '/api/stats/messages')).body).toEqual(stats.body);
    // The moved keys admit their holders on the new deployment: the source's admin key works there.
    const listed = await back.request('GET', '/api/sessions', { key: source.adminKey });
    expect(listed.status).toBe(200);
  });
});
