import { type ApiKey, ApiKey as ApiKeySchema } from '#shared/domain/api-key.js';

/** Every field of a stored key, in schema order (adapters map rows and items field by field). */
export const API_KEY_FIELDS = ApiKeySchema.keyof().options;

/** The fields of a key that an update may change (usage stats have their own path). */
export const API_KEY_PATCH_FIELDS = [
  'name',
  'role',
  'allowedIps',
  'allowedSessions',
  'allowedChats',
  'isActive',
  'expiresAt',
  'updatedAt',
] as const satisfies readonly (keyof ApiKey)[];

export type ApiKeyPatch = Partial<Pick<ApiKey, (typeof API_KEY_PATCH_FIELDS)[number]>>;

export type ApiKeyChange = { kind: 'update'; patch: ApiKeyPatch } | { kind: 'delete' };

export type GuardedChangeResult =
  | { outcome: 'applied'; key: ApiKey | null }
  | { outcome: 'not_found' }
  | { outcome: 'last_admin' };

/** One coalesced usage record: `count` uses since the last flush, the newest at `lastUsedAt`. */
export interface ApiKeyUsage {
  id: string;
  count: number;
  lastUsedAt: string;
}

/** API keys in the main store. Only SHA-256 hashes of keys are ever stored. */
export interface ApiKeyStore {
  /** Inserts a key; a duplicate hash raises ConflictError. */
  create(key: ApiKey): Promise<void>;
  findById(id: string): Promise<ApiKey | null>;
  findByHash(keyHash: string): Promise<ApiKey | null>;
  /** Every key, newest first. */
  list(): Promise<ApiKey[]>;
  count(): Promise<number>;
  /**
   * Applies an update or delete atomically unless it would leave no usable admin key at `now` (the domain's
   * `removesLastUsableAdmin`: admin, active, unexpired, unscoped, no IP allowlist): then nothing is written and
   * the outcome is `last_admin`.
   */
  applyGuarded(id: string, change: ApiKeyChange, now: Date): Promise<GuardedChangeResult>;
  /** Adds coalesced usage counts; `lastUsedAt` only moves forward. Unknown ids are ignored. */
  recordUsage(usages: readonly ApiKeyUsage[]): Promise<void>;
}
