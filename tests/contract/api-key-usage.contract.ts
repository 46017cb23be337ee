/** The coalesced usage counters every ApiKeyStore adapter keeps (part of api-key-store.contract.ts). */
import type { ApiKey } from '#shared/domain/api-key.js';
import type { ApiKeyStore } from '#shared/ports/api-key-store.port.js';
import { anApiKey, at } from '#tests/helpers/builders.js';

async function seed(store: ApiKeyStore, ...keys: ApiKey[]): Promise<ApiKey[]> {
  for (const key of keys) await store.create(key);
  return keys;
}

/** `store` answers the store the enclosing contract opened for the current test. */
export function apiKeyUsageContract(store: () => ApiKeyStore): void {
  describe('recordUsage', () => {
    it('adds counts and sets lastUsedAt on a key never used before', async () => {
      const [key] = await seed(store(), anApiKey());
      await store().recordUsage([{ id: key!.id, count: 3, lastUsedAt: at(5) }]);
      expect(await store().findById(key!.id)).toMatchObject({ usageCount: 3, lastUsedAt: at(5) });
    });

    it('adds every record of a batch, several for one key included', async () => {
      const [a, b] = await seed(store(), anApiKey({ usageCount: 10 }), anApiKey());
      await store().recordUsage([
        { id: a!.id, count: 2, lastUsedAt: at(1) },
        { id: b!.id, count: 1, lastUsedAt: at(2) },
        { id: a!.id, count: 5, lastUsedAt: at(3) },
      ]);
      expect(await store().findById(a!.id)).toMatchObject({ usageCount: 17, lastUsedAt: at(3) });
      expect(await store().findById(b!.id)).toMatchObject({ usageCount: 1, lastUsedAt: at(2) });
    });

    it('never moves lastUsedAt back, but still adds the count', async () => {
      const [key] = await seed(store(), anApiKey({ usageCount: 1, lastUsedAt: at(100) }));
      await store().recordUsage([{ id: key!.id, count: 4, lastUsedAt: at(50) }]);
      expect(await store().findById(key!.id)).toMatchObject({ usageCount: 5, lastUsedAt: at(100) });
    });

    it('ignores unknown ids and an empty batch, and leaves updatedAt alone', async () => {
      const [key] = await seed(store(), anApiKey({ updatedAt: at(0), createdAt: at(0) }));
      await store().recordUsage([]);
      await store().recordUsage([
        { id: 'missing', count: 9, lastUsedAt: at(9) },
        { id: key!.id, count: 1, lastUsedAt: at(9) },
      ]);
      expect(await store().findById(key!.id)).toMatchObject({ usageCount: 1, updatedAt: at(0) });
      expect(await store().count()).toBe(1);
    });
  });
}
