import { describe, expect, it } from '@jest/globals';
import { MemoryApiKeyStore } from '#shared/adapters/memory/memory-stores.js';
import { UsageTracker } from '#shared/auth/usage-tracker.js';
import type { ApiKeyStore } from '#shared/ports/api-key-store.port.js';
import { silentLogger } from '#shared/ports/logger.port.js';
import { anApiKey } from '#tests/helpers/builders.js';

describe('UsageTracker', () => {
  it('coalesces many uses into one write per key', async () => {
    const store = new MemoryApiKeyStore();
    const key = anApiKey();
    await store.create(key);
    const writes: number[] = [];
    const counting: ApiKeyStore = Object.assign(Object.create(store), {
      recordUsage: async (usages: Parameters<ApiKeyStore['recordUsage']>[0]) => {
        writes.push(usages.length);
        await store.recordUsage(usages);
      },
    });
    const tracker = new UsageTracker(counting, silentLogger, 60_000);
    for (let i = 0; i < 50; i++) tracker.record(key.id, new Date(Date.UTC(2026, 0, 1, 0, 0, i)));
    expect(writes).toEqual([]);
    await tracker.flush();
    expect(writes).toEqual([1]);
    const stored = await store.findById(key.id);
    expect(stored?.usageCount).toBe(50);
    expect(stored?.lastUsedAt).toBe('2026-01-01T00:00:49.000Z');
  });

  it('keeps the counts for the next flush when a write fails', async () => {
    const store = new MemoryApiKeyStore();
    const key = anApiKey();
    await store.create(key);
    let fail = true;
    const flaky: ApiKeyStore = Object.assign(Object.create(store), {
      recordUsage: async (usages: Parameters<ApiKeyStore['recordUsage']>[0]) => {
        if (fail) throw new Error('locked');
        await store.recordUsage(usages);
      },
    });
    const tracker = new UsageTracker(flaky, silentLogger, 60_000);
    tracker.record(key.id, new Date());
    await tracker.flush();
    tracker.record(key.id, new Date());
    fail = false;
    await tracker.flush();
    expect((await store.findById(key.id))?.usageCount).toBe(2);
  });
});
