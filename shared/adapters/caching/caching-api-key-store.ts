/**
 * Read-through cache in front of an ApiKeyStore for the per-request lookup by hash. Changes made through this
 * store evict the key at once; a change made by another process (aws mode: another Lambda) is seen within `ttlMs`.
 * Unknown hashes are not cached, so a key created anywhere works on its first use.
 */
import type { ApiKey } from '#shared/domain/api-key.js';
import type {
  ApiKeyChange,
  ApiKeyStore,
  ApiKeyUsage,
  GuardedChangeResult,
} from '#shared/ports/api-key-store.port.js';

const copy = (key: ApiKey): ApiKey => ({
  ...key,
  allowedIps: key.allowedIps ? [...key.allowedIps] : null,
  allowedSessions: key.allowedSessions ? [...key.allowedSessions] : null,
  allowedChats: key.allowedChats ? [...key.allowedChats] : null,
});

export class CachingApiKeyStore implements ApiKeyStore {
  private readonly byHash = new Map<string, { key: ApiKey; expiresAt: number }>();

  constructor(
    private readonly inner: ApiKeyStore,
    private readonly ttlMs: number,
    private readonly now: () => number = () => performance.now(),
    private readonly maxEntries = 10_000,
  ) {}

  async findByHash(keyHash: string): Promise<ApiKey | null> {
    const cached = this.byHash.get(keyHash);
    const now = this.now();
    if (cached && cached.expiresAt > now) return copy(cached.key);
    const key = await this.inner.findByHash(keyHash);
    if (!key) {
      this.byHash.delete(keyHash);
      return null;
    }
    if (this.byHash.size >= this.maxEntries) this.byHash.clear();
    this.byHash.set(keyHash, { key: copy(key), expiresAt: now + this.ttlMs });
    return key;
  }

  create(key: ApiKey): Promise<void> {
    return this.inner.create(key);
  }

  findById(id: string): Promise<ApiKey | null> {
    return this.inner.findById(id);
  }

  list(): Promise<ApiKey[]> {
    return this.inner.list();
  }

  count(): Promise<number> {
    return this.inner.count();
  }

  async applyGuarded(id: string, change: ApiKeyChange, now: Date): Promise<GuardedChangeResult> {
    try {
      return await this.inner.applyGuarded(id, change, now);
    } finally {
      for (const [hash, entry] of this.byHash) if (entry.key.id === id) this.byHash.delete(hash);
    }
  }

  recordUsage(usages: readonly ApiKeyUsage[]): Promise<void> {
    return this.inner.recordUsage(usages);
  }
}
