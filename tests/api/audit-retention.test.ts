/**
 * Audit retention: entries older than AUDIT_RETENTION_DAYS (default 90) are pruned at startup; 0 or less keeps
 * everything. Old rows are written straight into the main store, as an earlier release would have left them: into the
 * SQLite file (embedded), or through the DynamoDB adapter into the gateway's main table (aws mode).
 */
import path from 'node:path';
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import Database from 'better-sqlite3';
import { openDynamoDbMainStore } from '#shared/adapters/dynamodb/dynamodb-stores.js';
import { apiTarget, startTestGateway, type TestGateway, waitFor } from '#tests/helpers/test-gateway.js';

const DAY_MS = 86_400_000;

describe('audit retention', () => {
  let gw: TestGateway;

  /** Inserts one audit row dated `ageMs` ago, marked by its sessionId. */
  async function insertAged(marker: string, ageMs: number): Promise<void> {
    const createdAt = new Date(Date.now() - ageMs).toISOString();
    if (apiTarget === 'offline') {
      await insertIntoDynamoDb(marker, createdAt);
      return;
    }
    const db = new Database(path.join(gw.dataDir, 'main.sqlite'));
    try {
      db.pragma('busy_timeout = 5000');
      db.prepare(
        `INSERT INTO audit_logs (id, action, severity, session_id, session_name, metadata, created_at)
         VALUES (?, 'session_restricted', 'warn', ?, 'retention', '{"inserted":true}', ?)`,
      ).run(`retention-${marker}`, marker, createdAt);
    } finally {
      db.close();
    }
  }
  async function insertIntoDynamoDb(marker: string, createdAt: string): Promise<void> {
    const client = new DynamoDBClient({
      endpoint: gw.env.DYNAMODB_ENDPOINT,
      region: gw.env.AWS_REGION,
      credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
    });
    const main = openDynamoDbMainStore({ client, tablePrefix: gw.env.TABLE_PREFIX ?? '' });
    try {
      await main.audit.append([
        {
          id: `retention-${marker}`,
          action: 'session_restricted',
          severity: 'warn',
          apiKeyId: null,
          apiKeyName: null,
          sessionId: marker,
          sessionName: 'retention',
          ipAddress: null,
          userAgent: null,
          method: null,
          path: null,
          statusCode: null,
          metadata: { inserted: true },
          errorMessage: null,
          createdAt,
        },
      ]);
    } finally {
      await main.close();
      client.destroy();
    }
  }
  const present = async (marker: string) =>
    (await gw.request('GET', `/api/audit?sessionId=${marker}`)).body.total === 1;
  /** The startup pruning runs beside the serving gateway (instant on SQLite, a few round trips on DynamoDB). */
  const pruned = (marker: string) => waitFor(async () => !(await present(marker)));

  beforeAll(async () => {
    gw = await startTestGateway();
  });
  afterAll(async () => {
    await gw.close();
  });

  it('serves rows written directly to the store (the fixture works)', async () => {
    await insertAged('ancient', 100 * DAY_MS);
    await insertAged('ten-days', 10 * DAY_MS);
    await insertAged('recent', 3_600_000);
    const res = await gw.request('GET', '/api/audit?sessionId=ten-days');
    expect(res.body.data[0]).toMatchObject({
      id: 'retention-ten-days',
      action: 'session_restricted',
      severity: 'warn',
      metadata: { inserted: true },
    });
    for (const marker of ['ancient', 'ten-days', 'recent']) expect(await present(marker)).toBe(true);
  });

  it('prunes entries older than the 90-day default at startup', async () => {
    gw = await gw.restart();
    await pruned('ancient');
    expect(await present('ten-days')).toBe(true);
    expect(await present('recent')).toBe(true);
  });

  it('AUDIT_RETENTION_DAYS=1 prunes the 10-day-old entry and keeps the recent one', async () => {
    gw = await gw.restart({ AUDIT_RETENTION_DAYS: '1' });
    await pruned('ten-days');
    expect(await present('recent')).toBe(true);
    // Entries the running gateway writes itself are recent and stay.
    expect((await gw.request('GET', '/api/audit?action=session_restricted')).body.total).toBe(1);
  });

  it.each(['0', '-3'])('AUDIT_RETENTION_DAYS=%s prunes nothing', async (days) => {
    await insertAged(`kept-${days}`, 500 * DAY_MS);
    gw = await gw.restart({ AUDIT_RETENTION_DAYS: days });
    expect(await present(`kept-${days}`)).toBe(true);
    expect(await present('recent')).toBe(true);
  });
});
