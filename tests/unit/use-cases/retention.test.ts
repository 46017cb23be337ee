/**
 * The retention sweep on a test clock: each table loses exactly the rows older than its own retention as the clock
 * reads when the sweep runs, a day later the rows that aged meanwhile, a table whose retention is off keeps all, a
 * backlog goes in batches, and a failing table does not stop the others.
 */
import { describe, expect, it } from '@jest/globals';
import { createMemoryDataStore, MemoryAuditLogStore } from '#shared/adapters/memory/memory-stores.js';
import { loadEnv } from '#shared/config/env.js';
import type { AuditLogStore } from '#shared/ports/audit-log-store.port.js';
import {
  applyRetention,
  RETENTION_BATCH,
  type RetentionPolicy,
  retentionJobs,
  retentionPolicy,
} from '#shared/use-cases/maintenance/retention.js';
import { aDeliveryFailure, anAuditEntry } from '#tests/helpers/builders.js';
import { TestClock } from '#tests/helpers/test-clock.js';

const DAY_MS = 86_400_000;

/** Stores holding an audit entry and a delivery failure aged each of `ages` days on the clock, marked by their age. */
async function setUp(ages: number[]) {
  const clock = new TestClock();
  const audit = new MemoryAuditLogStore();
  const { deliveryFailures } = createMemoryDataStore();
  const daysAgo = (days: number) => new Date(clock.now().getTime() - days * DAY_MS).toISOString();
  await audit.append(ages.map((days) => anAuditEntry({ sessionName: `${days}d`, createdAt: daysAgo(days) })));
  for (const days of ages)
    await deliveryFailures.insert(aDeliveryFailure({ event: `${days}d`, createdAt: daysAgo(days) }));
  const left = async () => ({
    audit: (await audit.query({}, { limit: 5000, offset: 0 })).data.map((entry) => entry.sessionName),
    deliveryFailures: (await deliveryFailures.list({}, { limit: 5000, offset: 0 })).map(
      (failure) => failure.event,
    ),
  });
  return { clock, stores: { audit, deliveryFailures }, left };
}

describe('applyRetention', () => {
  it("removes each table's rows older than its retention and keeps the rest (stored as the env reads them)", async () => {
    const { clock, stores, left } = await setUp([100, 91, 89, 40, 0]);
    const policy = retentionPolicy({ AUDIT_RETENTION_DAYS: 90, WEBHOOK_FAILURE_RETENTION_DAYS: 30 });
    expect(await applyRetention(stores, clock, policy)).toEqual({ audit: 2, deliveryFailures: 4 });
    expect(await left()).toEqual({ audit: ['0d', '40d', '89d'], deliveryFailures: ['0d'] });
  });

  it('reads the clock at every run: a day later the rows that aged past the retention go too', async () => {
    const { clock, stores, left } = await setUp([100, 89.5, 10]);
    const policy: RetentionPolicy = { audit: 90, deliveryFailures: 90 };
    expect(await applyRetention(stores, clock, policy)).toEqual({ audit: 1, deliveryFailures: 1 });
    expect(await applyRetention(stores, clock, policy)).toEqual({ audit: 0, deliveryFailures: 0 });
    clock.advance(DAY_MS);
    expect(await applyRetention(stores, clock, policy)).toEqual({ audit: 1, deliveryFailures: 1 });
    expect(await left()).toEqual({ audit: ['10d'], deliveryFailures: ['10d'] });
  });

  it('keeps a table whole when its retention is off (0 or less in the env), pruning the other', async () => {
    const { clock, stores, left } = await setUp([1000, 5]);
    const policy = retentionPolicy({ AUDIT_RETENTION_DAYS: null, WEBHOOK_FAILURE_RETENTION_DAYS: 1 });
    expect(await applyRetention(stores, clock, policy)).toEqual({ audit: 0, deliveryFailures: 2 });
    expect(await left()).toEqual({ audit: ['5d', '1000d'], deliveryFailures: [] });
  });

  it('goes through a backlog larger than a batch, a batch per store call', async () => {
    const ages = Array.from({ length: RETENTION_BATCH * 2 + 1 }, (_, i) => 100 + i / 1000);
    const { clock, stores, left } = await setUp([...ages, 1]);
    const calls: number[] = [];
    const counted = stores.audit.pruneOlderThan.bind(stores.audit);
    stores.audit.pruneOlderThan = async (cutoff, limit) => {
      calls.push(limit);
      return counted(cutoff, limit);
    };
    const result = await applyRetention(stores, clock, { audit: 90, deliveryFailures: 90 });
    expect(result).toEqual({ audit: ages.length, deliveryFailures: ages.length });
    expect(calls).toEqual([RETENTION_BATCH, RETENTION_BATCH, RETENTION_BATCH]);
    expect(await left()).toEqual({ audit: ['1d'], deliveryFailures: ['1d'] });
  });

  it('runs every table when one fails, then throws its error', async () => {
    const { clock, stores, left } = await setUp([100, 1]);
    const broken: Pick<AuditLogStore, 'pruneOlderThan'> = {
      pruneOlderThan: async () => {
        throw new Error('main store down');
      },
    };
    await expect(
      applyRetention({ ...stores, audit: broken }, clock, { audit: 90, deliveryFailures: 90 }),
    ).rejects.toThrow('main store down');
    expect((await left()).deliveryFailures).toEqual(['1d']);
  });

  it('answers one job per table with its name and retention, for the host scheduler', () => {
    const { audit, deliveryFailures } = { audit: new MemoryAuditLogStore(), ...createMemoryDataStore() };
    const jobs = retentionJobs({ audit, deliveryFailures }, new TestClock(), {
      audit: 90,
      deliveryFailures: null,
    });
    expect(jobs.map(({ table, name, retentionDays }) => ({ table, name, retentionDays }))).toEqual([
      { table: 'audit', name: 'audit entries', retentionDays: 90 },
      { table: 'deliveryFailures', name: 'webhook delivery failures', retentionDays: null },
    ]);
  });
});

describe('retentionPolicy', () => {
  it.each([
    [undefined, 90],
    ['30', 30],
    ['0.5', 0.5],
    ['0', null],
    ['-3', null],
    ['', 90],
    ['soon', 90],
  ])('reads %p days as %p for both tables (0 or less turns retention off)', (value, days) => {
    const vars =
      value === undefined ? {} : { AUDIT_RETENTION_DAYS: value, WEBHOOK_FAILURE_RETENTION_DAYS: value };
    expect(retentionPolicy(loadEnv(vars))).toEqual({ audit: days, deliveryFailures: days });
  });
});
