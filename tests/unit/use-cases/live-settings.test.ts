/**
 * The run-time settings as a process applies them (LiveSettings) and as each retention run reads them: the env's
 * values overridden by the saved ones except where the env pins them; a save elsewhere reaches a process once its
 * values are older than the max age; appliers run on a change only; a failed read keeps the values in force.
 */
import { describe, expect, it } from '@jest/globals';
import { createMemoryDataStore } from '#shared/adapters/memory/memory-stores.js';
import { loadEnv } from '#shared/config/env.js';
import type { RuntimeSettings } from '#shared/config/runtime-settings.js';
import { silentLogger } from '#shared/ports/logger.port.js';
import { LiveSettings, SETTINGS_MAX_AGE_MS } from '#shared/use-cases/infra/live-settings.js';
import { currentRetentionPolicy, liveRetentionJobs } from '#shared/use-cases/maintenance/live-retention.js';
import { TestClock } from '#tests/helpers/test-clock.js';

const env = loadEnv({
  DATA_DIR: '/tmp/waygate-settings',
  LOG_LEVEL: 'warn',
  WEBHOOK_FAILURE_RETENTION_DAYS: '0',
});

describe('LiveSettings', () => {
  function live() {
    const data = createMemoryDataStore();
    const clock = new TestClock();
    const applied: RuntimeSettings[] = [];
    const settings = new LiveSettings({
      env,
      store: data.settings,
      clock,
      logger: silentLogger,
      appliers: [(s) => applied.push(s)],
    });
    return { data, clock, applied, settings };
  }

  it("starts from the env; a save elsewhere is applied once the values are stale, pinned ones stay the env's", async () => {
    const { data, clock, applied, settings } = live();
    expect(env.ENV_PINNED).toEqual(['LOG_LEVEL', 'WEBHOOK_FAILURE_RETENTION_DAYS']);
    expect(settings.current()).toMatchObject({
      LOG_LEVEL: 'warn',
      RATE_LIMIT_MAX: 100,
      AUDIT_RETENTION_DAYS: 90,
    });
    await settings.refreshIfStale();
    expect(applied).toEqual([]);
    await data.settings.write({
      overrides: { LOG_LEVEL: 'debug', RATE_LIMIT_MAX: 7 },
      updatedAt: clock.now().toISOString(),
    });
    expect(settings.refreshIfStale()).toBeUndefined();
    clock.advance(SETTINGS_MAX_AGE_MS);
    await settings.refreshIfStale();
    expect(settings.current()).toMatchObject({ LOG_LEVEL: 'warn', RATE_LIMIT_MAX: 7 });
    expect(applied).toHaveLength(1);
    clock.advance(SETTINGS_MAX_AGE_MS);
    await settings.refreshIfStale();
    expect(applied).toHaveLength(1);
  });

  it('keeps the values in force when the store cannot be read, and tries again later', async () => {
    const { data, clock, settings } = live();
    settings.apply({ RATE_LIMIT_MAX: 9 });
    const read = data.settings.read.bind(data.settings);
    data.settings.read = async () => {
      throw new Error('store down');
    };
    clock.advance(SETTINGS_MAX_AGE_MS);
    await settings.refreshIfStale();
    expect(settings.current().RATE_LIMIT_MAX).toBe(9);
    expect(settings.refreshIfStale()).toBeUndefined();
    data.settings.read = read;
    clock.advance(SETTINGS_MAX_AGE_MS);
    await settings.refreshIfStale();
    expect(settings.current().RATE_LIMIT_MAX).toBe(100);
  });
});

describe('retention from the run-time settings', () => {
  it('each run reads the policy in force; 0 keeps all; a table the env pins off is never scheduled', async () => {
    const data = createMemoryDataStore();
    const deps = { env, data };
    expect(await currentRetentionPolicy(deps)).toEqual({ audit: 90, deliveryFailures: null });
    const pruned: number[] = [];
    const stores = {
      audit: {
        pruneOlderThan: async (cutoff: Date) => {
          pruned.push(Math.round((Date.now() - cutoff.getTime()) / 86_400_000));
          return 0;
        },
      },
      deliveryFailures: { pruneOlderThan: async () => 0 },
    };
    const jobs = liveRetentionJobs(stores, { now: () => new Date() }, deps);
    expect(jobs.map((job) => job.retentionDays)).toEqual([90, null]);
    await data.settings.write({
      overrides: { AUDIT_RETENTION_DAYS: 5, WEBHOOK_FAILURE_RETENTION_DAYS: 3 },
      updatedAt: new Date().toISOString(),
    });
    expect(await currentRetentionPolicy(deps)).toEqual({ audit: 5, deliveryFailures: null });
    await jobs[0]?.run();
    await data.settings.write({
      overrides: { AUDIT_RETENTION_DAYS: 0 },
      updatedAt: new Date().toISOString(),
    });
    await jobs[0]?.run();
    expect(pruned).toEqual([5]);
  });
});
