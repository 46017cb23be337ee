/** The key cache is an ApiKeyStore too: it passes the same contract over SQLite, and our writes evict it. */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from '@jest/globals';
import { CachingApiKeyStore } from '#shared/adapters/caching/caching-api-key-store.js';
import { createMemoryMainStore } from '#shared/adapters/memory/memory-stores.js';
import { openSqliteMainStore } from '#shared/adapters/sqlite/sqlite-stores.js';
import { anApiKey } from '#tests/helpers/builders.js';
import { apiKeyStoreContract } from './api-key-store.contract.js';

apiKeyStoreContract('caching(sqlite)', async () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'waygate-cache-'));
  const main = openSqliteMainStore(path.join(dir, 'main.sqlite'));
  return { store: new CachingApiKeyStore(main.apiKeys, 60_000), close: () => main.close() };
});

describe('CachingApiKeyStore', () => {
  it('serves repeated lookups from the cache until the TTL passes', async () => {
    const inner = createMemoryMainStore().apiKeys;
    let now = 0;
    const cache = new CachingApiKeyStore(inner, 1000, () => now);
    const key = anApiKey();
    await inner.create(key);
    expect((await cache.findByHash(key.keyHash))?.name).toBe(key.name);
    await inner.applyGuarded(key.id, { kind: 'update', patch: { name: 'renamed-elsewhere' } }, new Date());
    expect((await cache.findByHash(key.keyHash))?.name).toBe(key.name);
    now = 1001;
    expect((await cache.findByHash(key.keyHash))?.name).toBe('renamed-elsewhere');
  });

  it('evicts a key at once when it is changed or deleted through the cache', async () => {
    const inner = createMemoryMainStore().apiKeys;
    const cache = new CachingApiKeyStore(inner, 60_000, () => 0);
    const admin = anApiKey({ role: 'admin' });
    const key = anApiKey({ role: 'operator' });
    await inner.create(admin);
    await inner.create(key);
    await cache.findByHash(key.keyHash);
    await cache.applyGuarded(key.id, { kind: 'update', patch: { isActive: false } }, new Date());
    expect((await cache.findByHash(key.keyHash))?.isActive).toBe(false);
    await cache.applyGuarded(key.id, { kind: 'delete' }, new Date());
    expect(await cache.findByHash(key.keyHash)).toBeNull();
  });

  it('does not cache unknown hashes, so a new key works on first use', async () => {
    const inner = createMemoryMainStore().apiKeys;
    const cache = new CachingApiKeyStore(inner, 60_000, () => 0);
    const key = anApiKey();
    expect(await cache.findByHash(key.keyHash)).toBeNull();
    await inner.create(key);
    expect(await cache.findByHash(key.keyHash)).not.toBeNull();
  });
});
