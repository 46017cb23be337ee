/**
 * Retention at the gateway's start: audit entries older than AUDIT_RETENTION_DAYS and webhook delivery failures older
 * than WEBHOOK_FAILURE_RETENTION_DAYS (both 90 by default) are pruned; 0 or less keeps a table whole. Old rows are
 * written straight into the stores, as an earlier release would have left them: into the SQLite files (embedded), or
 * through the DynamoDB adapters into the gateway's tables (aws mode, where the in-process host runs the same sweep
 * the maintenance function does).
 */
import path from 'node:path';
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import Database from 'better-sqlite3';
import { openDynamoDbDataStore, openDynamoDbMainStore } from '#shared/adapters/dynamodb/dynamodb-stores.js';
import { aDeliveryFailure, anAuditEntry } from '#tests/helpers/builders.js';
import { apiTarget, startTestGateway, type TestGateway, waitFor } from '#tests/helpers/test-gateway.js';

const DAY_MS = 86_400_000;

describe('retention', () => {
  let gw: TestGateway;

  /** One audit entry (sessionId `marker`) and one delivery failure (event `marker`) dated `ageMs` ago. */
  async function insertAged(marker: string, ageMs: number): Promise<void> {
    const createdAt = new Date(Date.now() - ageMs).toISOString();
    const entry = anAuditEntry({
      id: `retention-${marker}`,
      action: 'session_restricted',
      severity: 'warn',
      sessionId: marker,
      sessionName: 'retention',
      metadata: { inserted: true },
      createdAt,
    });
    const failure = aDeliveryFailure({ event: marker, createdAt });
    if (apiTarget === 'offline') return insertIntoDynamoDb(entry, failure);
    const main = new Database(path.join(gw.dataDir, 'main.sqlite'));
    const data = new Database(path.join(gw.dataDir, 'data.sqlite'));
    try {
      main.pragma('busy_timeout = 5000');
      data.pragma('busy_timeout = 5000');
      main
        .prepare(
          `INSERT INTO audit_logs (id, action, severity, session_id, session_name, metadata, created_at)
           VALUES (?, 'session_restricted', 'warn', ?, 'retention', '{"inserted":true}', ?)`,
        )
        .run(entry.id, marker, createdAt);
      data
        .prepare(
          `INSERT INTO webhook_delivery_failures (id, webhook_id, session_id, event, url, idempotency_key, attempts,
             last_error, created_at)
           VALUES (?, ?, ?, ?, ?, ?, 3, 'HTTP 500', ?)`,
        )
        .run(
          failure.id,
          failure.webhookId,
          failure.sessionId,
          marker,
          failure.url,
          failure.idempotencyKey,
          createdAt,
        );
    } finally {
      main.close();
      data.close();
    }
  }
  async function insertIntoDynamoDb(
    entry: ReturnType<typeof anAuditEntry>,
    failure: ReturnType<typeof aDeliveryFailure>,
  ): Promise<void> {
    const client = new DynamoDBClient({
      endpoint: gw.env.DYNAMODB_ENDPOINT,
      region: gw.env.AWS_REGION,
      credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
    });
    const tablePrefix = gw.env.TABLE_PREFIX ?? '';
    const main = openDynamoDbMainStore({ client, tablePrefix });
    const data = openDynamoDbDataStore({ client, tablePrefix });
    try {
      await main.audit.append([entry]);
      await data.deliveryFailures.insert(failure);
    } finally {
      await Promise.all([main.close(), data.close()]);
      client.destroy();
    }
  }
  const auditPresent = async (marker: string) =>
    (await gw.request('GET', `/api/audit?sessionId=${marker}`)).body.total === 1;
  const failurePresent = async (marker: string) =>
    (await gw.request('GET', '/api/webhooks/delivery-failures')).body.some(
      (failure: { event: string }) => failure.event === marker,
    );
  const present = async (marker: string) => ({
    audit: await auditPresent(marker),
    failure: await failurePresent(marker),
  });
  /** The startup pruning runs beside the serving gateway (instant on SQLite, a few round trips on DynamoDB). */
  const auditPruned = (marker: string) => waitFor(async () => !(await auditPresent(marker)));
  const failurePruned = (marker: string) => waitFor(async () => !(await failurePresent(marker)));

  beforeAll(async () => {
    gw = await startTestGateway();
  });
  afterAll(async () => {
    await gw.close();
  });

  it('serves rows written directly to the stores (the fixture works)', async () => {
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
    for (const marker of ['ancient', 'ten-days', 'recent']) {
      expect(await present(marker)).toEqual({ audit: true, failure: true });
    }
  });

  it('prunes rows older than the 90-day defaults at startup', async () => {
    gw = await gw.restart();
    await auditPruned('ancient');
    await failurePruned('ancient');
    expect(await present('ten-days')).toEqual({ audit: true, failure: true });
    expect(await present('recent')).toEqual({ audit: true, failure: true });
  });

  it('AUDIT_RETENTION_DAYS=1 prunes the 10-day-old entry and keeps the recent one', async () => {
    gw = await gw.restart({ AUDIT_RETENTION_DAYS: '1' });
    await auditPruned('ten-days');
    expect(await present('ten-days')).toEqual({ audit: false, failure: true });
    expect(await present('recent')).toEqual({ audit: true, failure: true });
    // Entries the running gateway writes itself are recent and stay.
    expect((await gw.request('GET', '/api/audit?action=session_restricted')).body.total).toBe(1);
  });

  it('WEBHOOK_FAILURE_RETENTION_DAYS=1 prunes the 10-day-old failure and keeps the recent one', async () => {
    gw = await gw.restart({ WEBHOOK_FAILURE_RETENTION_DAYS: '1' });
    await failurePruned('ten-days');
    expect(await present('recent')).toEqual({ audit: true, failure: true });
  });

  // The other table's pruning of the same 500-day-old marker shows the startup sweep has run.
  it('AUDIT_RETENTION_DAYS=0 keeps the whole audit log', async () => {
    await insertAged('kept-audit', 500 * DAY_MS);
    gw = await gw.restart({ AUDIT_RETENTION_DAYS: '0', WEBHOOK_FAILURE_RETENTION_DAYS: '1' });
    await failurePruned('kept-audit');
    expect(await present('kept-audit')).toEqual({ audit: true, failure: false });
    expect(await present('recent')).toEqual({ audit: true, failure: true });
  });

  it('WEBHOOK_FAILURE_RETENTION_DAYS=-3 keeps every delivery failure', async () => {
    await insertAged('kept-failure', 500 * DAY_MS);
    gw = await gw.restart({ AUDIT_RETENTION_DAYS: '1', WEBHOOK_FAILURE_RETENTION_DAYS: '-3' });
    await auditPruned('kept-failure');
    expect(await present('kept-failure')).toEqual({ audit: false, failure: true });
    expect(await present('recent')).toEqual({ audit: true, failure: true });
  });
});
