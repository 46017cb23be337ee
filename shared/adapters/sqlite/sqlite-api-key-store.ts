/**
 * ApiKeyStore over the main SQLite file. Only hashes are stored; the allowlists are JSON text. The lookups made on
 * every request (`findByHash`, `findById`) use statements prepared once here.
 */
import type Database from 'better-sqlite3';
import { applyPatch } from '#shared/adapters/patch-support.js';
import { type ApiKey, removesLastUsableAdmin } from '#shared/domain/api-key.js';
import type { Role } from '#shared/domain/roles.js';
import { ConflictError } from '#shared/errors/app-error.js';
import {
  API_KEY_PATCH_FIELDS,
  type ApiKeyChange,
  type ApiKeyStore,
  type ApiKeyUsage,
  type GuardedChangeResult,
} from '#shared/ports/api-key-store.port.js';
import type { SqliteDb } from './sqlite-database.js';
import { LazyStatement, parseStringList, runSql, toJsonColumn } from './sqlite-store-support.js';

interface ApiKeyRow {
  id: string;
  name: string;
  key_hash: string;
  key_prefix: string;
  role: string;
  allowed_ips: string | null;
  allowed_sessions: string | null;
  allowed_chats: string | null;
  is_active: number;
  expires_at: string | null;
  last_used_at: string | null;
  usage_count: number;
  created_at: string;
  updated_at: string;
}

interface UsageParams {
  id: string;
  count: number;
  last_used_at: string;
}

type GuardedFn = (id: string, change: ApiKeyChange, now: Date) => GuardedChangeResult;

const STORE = 'API key store';

function toApiKey(row: ApiKeyRow): ApiKey {
  return {
    id: row.id,
    name: row.name,
    keyHash: row.key_hash,
    keyPrefix: row.key_prefix,
    // Only ever written from a validated ApiKey.
    role: row.role as Role,
    allowedIps: parseStringList(row.allowed_ips),
    allowedSessions: parseStringList(row.allowed_sessions),
    allowedChats: parseStringList(row.allowed_chats),
    isActive: row.is_active === 1,
    expiresAt: row.expires_at,
    lastUsedAt: row.last_used_at,
    usageCount: row.usage_count,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}

function toRow(key: ApiKey): ApiKeyRow {
  return {
    id: key.id,
    name: key.name,
    key_hash: key.keyHash,
    key_prefix: key.keyPrefix,
    role: key.role,
    allowed_ips: toJsonColumn(key.allowedIps),
    allowed_sessions: toJsonColumn(key.allowedSessions),
    allowed_chats: toJsonColumn(key.allowedChats),
    is_active: key.isActive ? 1 : 0,
    expires_at: key.expiresAt,
    last_used_at: key.lastUsedAt,
    usage_count: key.usageCount,
    created_at: key.createdAt,
    updated_at: key.updatedAt,
  };
}

function duplicateKey(target: string): ConflictError {
  return new ConflictError(
    'CONFLICT',
    target === 'api_keys.key_hash'
      ? 'An API key with this hash already exists'
      : 'An API key with this id already exists',
  );
}

/** API keys in SQLite; the last-admin guard and usage flushes each run in one write transaction. */
export class SqliteApiKeyStore implements ApiKeyStore {
  private readonly insertRow: LazyStatement<ApiKeyRow>;
  private readonly selectById: LazyStatement<[string], ApiKeyRow>;
  private readonly selectByHash: LazyStatement<[string], ApiKeyRow>;
  private readonly selectAll: LazyStatement<[], ApiKeyRow>;
  private readonly countAll: LazyStatement<[], number>;
  private readonly selectOtherAdmins: LazyStatement<[string], ApiKeyRow>;
  private readonly updateRow: LazyStatement<ApiKeyRow>;
  private readonly deleteById: LazyStatement<[string]>;
  private readonly addUsage: LazyStatement<UsageParams>;
  private readonly guarded: Database.Transaction<GuardedFn>;
  private readonly usageBatch: Database.Transaction<(usages: readonly ApiKeyUsage[]) => void>;

  constructor(db: SqliteDb) {
    this.insertRow = new LazyStatement(
      db,
      `INSERT INTO api_keys (id, name, key_hash, key_prefix, role, allowed_ips, allowed_sessions, allowed_chats, is_active,
         expires_at, last_used_at, usage_count, created_at, updated_at)
       VALUES (@id, @name, @key_hash, @key_prefix, @role, @allowed_ips, @allowed_sessions, @allowed_chats, @is_active,
         @expires_at, @last_used_at, @usage_count, @created_at, @updated_at)`,
    );
    this.selectById = new LazyStatement(db, 'SELECT * FROM api_keys WHERE id = ?');
    this.selectByHash = new LazyStatement(db, 'SELECT * FROM api_keys WHERE key_hash = ?');
    this.selectAll = new LazyStatement(db, 'SELECT * FROM api_keys ORDER BY created_at DESC, id DESC');
    this.countAll = new LazyStatement<[], number>(db, 'SELECT COUNT(*) FROM api_keys', true);
    // Only a pre-filter: the domain's isUsableAdmin judges the rest (expiry, scope, IPs) in code.
    this.selectOtherAdmins = new LazyStatement(
      db,
      "SELECT * FROM api_keys WHERE role = 'admin' AND is_active = 1 AND id <> ?",
    );
    this.updateRow = new LazyStatement(
      db,
      `UPDATE api_keys SET name = @name, role = @role, allowed_ips = @allowed_ips,
         allowed_sessions = @allowed_sessions, allowed_chats = @allowed_chats, is_active = @is_active, expires_at = @expires_at,
         updated_at = @updated_at
       WHERE id = @id`,
    );
    this.deleteById = new LazyStatement(db, 'DELETE FROM api_keys WHERE id = ?');
    this.addUsage = new LazyStatement(
      db,
      `UPDATE api_keys SET usage_count = usage_count + @count,
         last_used_at = CASE WHEN last_used_at IS NULL OR last_used_at < @last_used_at
                             THEN @last_used_at ELSE last_used_at END
       WHERE id = @id`,
    );
    this.guarded = db.transaction((id: string, change: ApiKeyChange, now: Date) =>
      this.applyInTransaction(id, change, now),
    );
    this.usageBatch = db.transaction((usages: readonly ApiKeyUsage[]) => {
      for (const usage of usages) {
        this.addUsage.run({ id: usage.id, count: usage.count, last_used_at: usage.lastUsedAt });
      }
    });
  }

  async create(key: ApiKey): Promise<void> {
    runSql(STORE, () => this.insertRow.run(toRow(key)), duplicateKey);
  }

  async findById(id: string): Promise<ApiKey | null> {
    return runSql(STORE, () => {
      const row = this.selectById.get(id);
      return row === undefined ? null : toApiKey(row);
    });
  }

  async findByHash(keyHash: string): Promise<ApiKey | null> {
    return runSql(STORE, () => {
      const row = this.selectByHash.get(keyHash);
      return row === undefined ? null : toApiKey(row);
    });
  }

  async list(): Promise<ApiKey[]> {
    return runSql(STORE, () => this.selectAll.all().map(toApiKey));
  }

  async count(): Promise<number> {
    return runSql(STORE, () => this.countAll.get() ?? 0);
  }

  async applyGuarded(id: string, change: ApiKeyChange, now: Date): Promise<GuardedChangeResult> {
    // IMMEDIATE takes the write lock before the read, so two guarded changes cannot both see "another admin".
    return runSql(STORE, () => this.guarded.immediate(id, change, now), duplicateKey);
  }

  async recordUsage(usages: readonly ApiKeyUsage[]): Promise<void> {
    if (usages.length === 0) return;
    runSql(STORE, () => this.usageBatch.immediate(usages));
  }

  private applyInTransaction(id: string, change: ApiKeyChange, now: Date): GuardedChangeResult {
    const row = this.selectById.get(id);
    if (row === undefined) return { outcome: 'not_found' };
    const before = toApiKey(row);
    const after = change.kind === 'delete' ? null : applyPatch(before, change.patch, API_KEY_PATCH_FIELDS);
    const otherAdmins = () => this.selectOtherAdmins.all(id).map(toApiKey);
    if (removesLastUsableAdmin(before, after, otherAdmins, now)) return { outcome: 'last_admin' };
    if (after === null) {
      this.deleteById.run(id);
      return { outcome: 'applied', key: null };
    }
    this.updateRow.run(toRow(after));
    const written = this.selectById.get(id);
    return { outcome: 'applied', key: written === undefined ? null : toApiKey(written) };
  }
}
