import { describe, expect, it } from '@jest/globals';
import { installDeps } from '#functions/deps.js';
import { handler } from '#functions/maintenance.js';
import { MemoryAuditLogStore } from '#shared/adapters/memory/memory-stores.js';
import { AuditRecorder } from '#shared/audit/audit-recorder.js';
import { loadEnv } from '#shared/config/env.js';
import { SYSTEM_CALLER } from '#shared/domain/caller.js';
import { createMetrics } from '#shared/observability/metrics.js';
import { silentLogger } from '#shared/ports/logger.port.js';
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
  const env = loadEnv({ AUDIT_RETENTION_DAYS: retentionDays });
  // The maintenance function reads only these; the rest of the dependencies never comes into play.
  installDeps({ env, clock, logger: silentLogger, main: { audit } } as unknown as Parameters<
    typeof installDeps
  >[0]);
  const remaining = async () =>
    (await audit.query({}, { limit: 10, offset: 0 })).data.map((entry) => entry.sessionId);
  return { remaining };
}

describe('maintenance function', () => {
  it('prunes audit entries older than AUDIT_RETENTION_DAYS', async () => {
    const { remaining } = await setUp('30');
    await expect(handler()).resolves.toEqual({ auditRemoved: 1 });
    expect(await remaining()).toEqual(['s-new']);
  });

  it('keeps everything when retention is 0', async () => {
    const { remaining } = await setUp('0');
    await expect(handler()).resolves.toEqual({ auditRemoved: 0 });
    expect(await remaining()).toEqual(['s-new', 's-old']);
  });
});
