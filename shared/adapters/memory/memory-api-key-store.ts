/** In-memory ApiKeyStore: the unit-test fake, behaving like the SQLite adapter (copies, ordering, errors). */
import { applyPatch } from '#shared/adapters/patch-support.js';
import { type ApiKey, removesLastUsableAdmin } from '#shared/domain/api-key.js';
import { ConflictError } from '#shared/errors/app-error.js';
import {
  API_KEY_PATCH_FIELDS,
  type ApiKeyChange,
  type ApiKeyStore,
  type ApiKeyUsage,
  type GuardedChangeResult,
} from '#shared/ports/api-key-store.port.js';
import { newestFirst } from './memory-support.js';

/** Field-by-field copy so callers never hold the stored object or its lists, and stray fields are dropped. */
function copyKey(key: ApiKey): ApiKey {
  return {
    id: key.id,
    name: key.name,
    keyHash: key.keyHash,
    keyPrefix: key.keyPrefix,
    role: key.role,
    allowedIps: key.allowedIps === null ? null : [...key.allowedIps],
    allowedSessions: key.allowedSessions === null ? null : [...key.allowedSessions],
    allowedChats: key.allowedChats === null ? null : [...key.allowedChats],
    isActive: key.isActive,
    expiresAt: key.expiresAt,
    lastUsedAt: key.lastUsedAt,
    usageCount: key.usageCount,
    createdAt: key.createdAt,
    updatedAt: key.updatedAt,
  };
}

/** API keys in a Map; every method is atomic because nothing in it awaits. */
export class MemoryApiKeyStore implements ApiKeyStore {
  private readonly byId = new Map<string, ApiKey>();

  async create(key: ApiKey): Promise<void> {
    if (this.byId.has(key.id)) throw new ConflictError('CONFLICT', 'An API key with this id already exists');
    if (this.findStoredByHash(key.keyHash) !== undefined) {
      throw new ConflictError('CONFLICT', 'An API key with this hash already exists');
    }
    this.byId.set(key.id, copyKey(key));
  }

  async findById(id: string): Promise<ApiKey | null> {
    const key = this.byId.get(id);
    return key === undefined ? null : copyKey(key);
  }

  async findByHash(keyHash: string): Promise<ApiKey | null> {
    const key = this.findStoredByHash(keyHash);
    return key === undefined ? null : copyKey(key);
  }

  async list(): Promise<ApiKey[]> {
    return [...this.byId.values()].sort(newestFirst).map(copyKey);
  }

  async count(): Promise<number> {
    return this.byId.size;
  }

  async applyGuarded(id: string, change: ApiKeyChange, now: Date): Promise<GuardedChangeResult> {
    const before = this.byId.get(id);
    if (before === undefined) return { outcome: 'not_found' };
    const after =
      change.kind === 'delete' ? null : copyKey(applyPatch(before, change.patch, API_KEY_PATCH_FIELDS));
    if (removesLastUsableAdmin(before, after, () => this.byId.values(), now))
      return { outcome: 'last_admin' };
    if (after === null) {
      this.byId.delete(id);
      return { outcome: 'applied', key: null };
    }
    this.byId.set(id, after);
    return { outcome: 'applied', key: copyKey(after) };
  }

  async recordUsage(usages: readonly ApiKeyUsage[]): Promise<void> {
    for (const usage of usages) {
      const key = this.byId.get(usage.id);
      if (key === undefined) continue;
      key.usageCount += usage.count;
      if (key.lastUsedAt === null || key.lastUsedAt < usage.lastUsedAt) key.lastUsedAt = usage.lastUsedAt;
    }
  }

  private findStoredByHash(keyHash: string): ApiKey | undefined {
    for (const key of this.byId.values()) if (key.keyHash === keyHash) return key;
    return undefined;
  }
}
