import { describe, expect, it } from '@jest/globals';
import { installDeps } from '#functions/deps.js';
import { handler } from '#functions/maintenance.js';
import { createMemoryDataStore, MemoryAuditLogStore } from '#shared/adapters/memory/memory-stores.js';
import { AuditRecorder } from '#shared/audit/audit-recorder.js';
import { loadEnv } from '#shared/config/env.js';
import { SYSTEM_CALLER } from '#shared/domain/caller.js';
import { createMetrics } from '#shared/observability/metrics.js';
import { silentLogger } from '#shared/ports/logger.port.js';
import { aDeliveryFailure } from '#tests/helpers/builders.js';
import { TestClock } from '#tests/helpers/test-clock.js';

const DAY_MS = 86_400_000;

/** An audit log with one entry 40 days old and one from today, and the maintenance function's dependencies. */
async function setUp(retentionDays: string) {
  const clock = new TestClock();
  const audit = new MemoryAuditLogStore();
  const recorder = new AuditRecorder(audit, clock, silentLogger, createMetrics());
  recorder.record(SYSTEM_CALLER, { action: 'session_created', sessionId: 's-old', sessionName: 'old' });
  await recorder.flush();
  clock.advance(40 * DAY_MS);
  recorder.record(SYSTEM_CALLER, { action: 'session_created', sessionId: 's-new', sessionName: 'new' });
  await recorder.flush();
  const data = createMemoryDataStore();
  await data.deliveryFailures.insert(
    aDeliveryFailure({
      createdAt: new Date(clock.now().getTime() - 40 * DAY_MS).toISOString(),
      event: 'old',
    }),
  );
  await data.deliveryFailures.insert(
    aDeliveryFailure({ createdAt: clock.now().toISOString(), event: 'new' }),
  );
  const env = loadEnv({ AUDIT_RETENTION_DAYS: retentionDays, WEBHOOK_FAILURE_RETENTION_DAYS: retentionDays });
  // The maintenance function reads only these; the rest of the dependencies never comes into play.
  installDeps({ env, clock, logger: silentLogger, main: { audit }, data } as unknown as Parameters<
    typeof installDeps
  >[0]);
  const remaining = async () =>
    (await audit.query({}, { limit: 10, offset: 0 })).data.map((entry) => entry.sessionId);
  const failures = async () =>
    (await data.deliveryFailures.list({}, { limit: 10, offset: 0 })).map((failure) => failure.event);
  return { remaining, failures };
}

describe('maintenance function', () => {
  it('prunes audit entries and delivery failures older than their retention', async () => {
    const { remaining, failures } = await setUp('30');
    await expect(handler()).resolves.toEqual({
      auditRemoved: 1,
      deliveryFailuresRemoved: 1,
      statusesRemoved: 0,
    });
    expect(await remaining()).toEqual(['s-new']);
    expect(await failures()).toEqual(['new']);
  });

  it('keeps everything when retention is 0', async () => {
    const { remaining, failures } = await setUp('0');
    await expect(handler()).resolves.toEqual({
      auditRemoved: 0,
      deliveryFailuresRemoved: 0,
      statusesRemoved: 0,
    });
    expect(await remaining()).toEqual(['s-new', 's-old']);
    expect(await failures()).toEqual(['new', 'old']);
  });
});
