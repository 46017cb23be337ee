/**
 * API keys in DynamoDB. Keys share one partition so every read that judges the last usable admin is a strongly
 * consistent Query; a hash-lock item (same transaction as the key) keeps hashes unique and serves lookups.
 *
 * `applyGuarded` uses optimistic versioning: it reads the guard item's `version`, reads every key, judges the
 * change, and commits the change in one transaction with `version = :seen` → `version + 1`. Two concurrent
 * guarded changes therefore cannot both commit on the same snapshot; the loser re-reads and is judged again (so
 * two admins deleting each other leave one). Creating keys and recording usage never make an admin unusable, so
 * they skip the guard.
 */
import { type DynamoDBDocumentClient, TransactWriteCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { patchFields } from '#shared/adapters/patch-support.js';
import { type ApiKey, removesLastUsableAdmin } from '#shared/domain/api-key.js';
import { ConflictError } from '#shared/errors/app-error.js';
import {
  API_KEY_FIELDS,
  API_KEY_PATCH_FIELDS,
  type ApiKeyChange,
  type ApiKeyStore,
  type ApiKeyUsage,
  type GuardedChangeResult,
} from '#shared/ports/api-key-store.port.js';
import {
  cancellationCodes,
  copy,
  createWithLock,
  getItem,
  guard,
  type Item,
  isConditionFailed,
  partitionQuery,
  queryCount,
  queryPartition,
  setExpression,
} from './dynamodb-support.js';

const STORE = 'Main store';
const PARTITION = 'APIKEYS';
const GUARD_KEY = { pk: 'APIKEYGUARD', sk: 'GUARD' };
const MAX_ATTEMPTS = 10;

const keyKey = (id: string) => ({ pk: PARTITION, sk: `KEY#${id}` });
const hashKey = (keyHash: string) => ({ pk: `APIKEYHASH#${keyHash}`, sk: 'LOCK' });

function toApiKey(item: Item): ApiKey {
  const key: Record<string, unknown> = {};
  for (const field of API_KEY_FIELDS) key[field] = item[field] ?? null;
  // Allowlists fail closed: anything but an array of strings becomes an empty list.
  for (const field of ['allowedIps', 'allowedSessions', 'allowedChats'] as const) {
    const list = key[field];
    if (list !== null && !(Array.isArray(list) && list.every((entry) => typeof entry === 'string')))
      key[field] = [];
  }
  return key as ApiKey;
}

/** ApiKeyStore on the main table. */
export class DynamoDbApiKeyStore implements ApiKeyStore {
  constructor(
    private readonly doc: DynamoDBDocumentClient,
    private readonly table: string,
  ) {}

  create(key: ApiKey): Promise<void> {
    return guard(STORE, () =>
      createWithLock(
        this.doc,
        this.table,
        { item: { ...copy(key), ...keyKey(key.id) }, lock: { ...hashKey(key.keyHash), keyId: key.id } },
        {
          item: () => new ConflictError('CONFLICT', 'An API key with this id already exists'),
          lock: () => new ConflictError('CONFLICT', 'An API key with this hash already exists'),
        },
      ),
    );
  }

  findById(id: string): Promise<ApiKey | null> {
    return guard(STORE, () => this.read(id));
  }

  findByHash(keyHash: string): Promise<ApiKey | null> {
    return guard(STORE, async () => {
      const lock = await getItem(this.doc, this.table, hashKey(keyHash));
      const keyId = lock?.keyId;
      if (typeof keyId !== 'string') return null;
      const key = await this.read(keyId);
      return key?.keyHash === keyHash ? key : null;
    });
  }

  list(): Promise<ApiKey[]> {
    return guard(STORE, async () =>
      (await this.all()).sort((a, b) => b.createdAt.localeCompare(a.createdAt) || b.id.localeCompare(a.id)),
    );
  }

  count(): Promise<number> {
    return guard(STORE, () => queryCount(this.doc, partitionQuery(this.table, PARTITION)));
  }

  applyGuarded(id: string, change: ApiKeyChange, now: Date): Promise<GuardedChangeResult> {
    return guard(STORE, async () => {
      for (let attempt = 1; attempt <= MAX_ATTEMPTS; attempt++) {
        const guardItem = await getItem(this.doc, this.table, GUARD_KEY);
        const version = typeof guardItem?.version === 'number' ? guardItem.version : 0;
        const keys = await this.all();
        const target = keys.find((key) => key.id === id);
        if (!target) return { outcome: 'not_found' };
        const patch = change.kind === 'update' ? patchFields(change.patch, API_KEY_PATCH_FIELDS) : {};
        const after = change.kind === 'update' ? { ...target, ...patch } : null;
        if (removesLastUsableAdmin(target, after, () => keys, now)) return { outcome: 'last_admin' };
        const bump = {
          Update: {
            TableName: this.table,
            Key: GUARD_KEY,
            UpdateExpression: 'SET version = :next',
            ConditionExpression: version === 0 ? 'attribute_not_exists(version)' : 'version = :seen',
            ExpressionAttributeValues: {
              ':next': version + 1,
              ...(version === 0 ? {} : { ':seen': version }),
            },
          },
        };
        const writes =
          change.kind === 'delete'
            ? [
                {
                  Delete: {
                    TableName: this.table,
                    Key: keyKey(id),
                    ConditionExpression: 'attribute_exists(pk)',
                  },
                },
                { Delete: { TableName: this.table, Key: hashKey(target.keyHash) } },
              ]
            : Object.keys(patch).length === 0
              ? []
              : [
                  {
                    Update: {
                      TableName: this.table,
                      Key: keyKey(id),
                      ...setExpression(patch),
                      ConditionExpression: 'attribute_exists(pk)',
                    },
                  },
                ];
        try {
          await this.doc.send(new TransactWriteCommand({ TransactItems: [bump, ...writes] }));
        } catch (error) {
          // Another guarded change (or a delete of this key) committed first: judge again on fresh data.
          if (cancellationCodes(error)?.includes('ConditionalCheckFailed')) continue;
          throw error;
        }
        return { outcome: 'applied', key: change.kind === 'delete' ? null : await this.read(id) };
      }
      throw new ConflictError('CONFLICT', 'API keys changed concurrently; retry');
    });
  }

  recordUsage(usages: readonly ApiKeyUsage[]): Promise<void> {
    return guard(STORE, async () => {
      const merged = new Map<string, ApiKeyUsage>();
      for (const usage of usages) {
        const seen = merged.get(usage.id);
        merged.set(usage.id, {
          id: usage.id,
          count: (seen?.count ?? 0) + usage.count,
          lastUsedAt: seen && seen.lastUsedAt > usage.lastUsedAt ? seen.lastUsedAt : usage.lastUsedAt,
        });
      }
      await Promise.all([...merged.values()].map((usage) => this.addUsage(usage)));
    });
  }

  /** Adds the count, moving lastUsedAt only forward; an unknown id fails its condition and is ignored. */
  private async addUsage(usage: ApiKeyUsage): Promise<void> {
    const base = { TableName: this.table, Key: keyKey(usage.id) };
    try {
      await this.doc.send(
        new UpdateCommand({
          ...base,
          UpdateExpression: 'ADD usageCount :count SET lastUsedAt = :at',
          ConditionExpression:
            'attribute_exists(pk) AND (attribute_not_exists(lastUsedAt) OR attribute_type(lastUsedAt, :null) OR lastUsedAt < :at)',
          ExpressionAttributeValues: { ':count': usage.count, ':at': usage.lastUsedAt, ':null': 'NULL' },
        }),
      );
      return;
    } catch (error) {
      if (!isConditionFailed(error)) throw error;
    }
    try {
      await this.doc.send(
        new UpdateCommand({
          ...base,
          UpdateExpression: 'ADD usageCount :count',
          ConditionExpression: 'attribute_exists(pk)',
          ExpressionAttributeValues: { ':count': usage.count },
        }),
      );
    } catch (error) {
      if (!isConditionFailed(error)) throw error;
    }
  }

  private async read(id: string): Promise<ApiKey | null> {
    const item = await getItem(this.doc, this.table, keyKey(id));
    return item ? toApiKey(item) : null;
  }

  private async all(): Promise<ApiKey[]> {
    const items = await queryPartition(this.doc, this.table, PARTITION);
    return items.map(toApiKey);
  }
}
