/** API key administration (admin, unscoped): create, list, get, update, revoke, delete, with last-admin guards. */
import { randomUUID } from 'node:crypto';
import {
  type ApiKey,
  type ApiKeyResponse,
  type CreateApiKeyBody,
  type CreatedApiKeyResponse,
  toApiKeyResponse,
  type UpdateApiKeyBody,
} from '../../domain/api-key.js';
import type { Caller } from '../../domain/caller.js';
import { ConflictError, NotFoundError, ValidationError } from '../../errors/app-error.js';
import type { ApiKeyChange, ApiKeyPatch } from '../../ports/api-key-store.port.js';
import { apiKeyPrefix, generateApiKey, hashApiKey } from '../../security/secrets.js';
import type { CoreDeps } from '../core-deps.js';

type KeyDeps = Pick<CoreDeps, 'main' | 'audit' | 'clock'>;

const notFound = (id: string) => new NotFoundError(`API key '${id}' not found`);
const lastAdmin = () => new ConflictError('LAST_ADMIN_KEY', 'Cannot remove the last active admin key');

/** Creates a key and answers its plaintext once; only the SHA-256 hash is stored. */
export async function createApiKey(
  deps: KeyDeps,
  caller: Caller,
  body: CreateApiKeyBody,
): Promise<CreatedApiKeyResponse> {
  const now = deps.clock.now();
  if (body.expiresAt !== undefined && Date.parse(body.expiresAt) <= now.getTime()) {
    throw new ValidationError('expiresAt must be in the future');
  }
  const plaintext = generateApiKey();
  const key = newKeyRecord(plaintext, body, now);
  await deps.main.apiKeys.create(key);
  deps.audit.record(caller, {
    action: 'api_key_created',
    metadata: { targetKeyId: key.id, targetKeyName: key.name, role: key.role },
  });
  return { ...toApiKeyResponse(key), apiKey: plaintext };
}

/** The stored record for a new key (also used for the bootstrap admin key). */
export function newKeyRecord(plaintext: string, body: CreateApiKeyBody, now: Date): ApiKey {
  const iso = now.toISOString();
  return {
    id: randomUUID(),
    name: body.name,
    keyHash: hashApiKey(plaintext),
    keyPrefix: apiKeyPrefix(plaintext),
    role: body.role,
    allowedIps: body.allowedIps && body.allowedIps.length > 0 ? body.allowedIps : null,
    allowedSessions: body.allowedSessions && body.allowedSessions.length > 0 ? body.allowedSessions : null,
    isActive: true,
    expiresAt: body.expiresAt ? new Date(body.expiresAt).toISOString() : null,
    lastUsedAt: null,
    usageCount: 0,
    createdAt: iso,
    updatedAt: iso,
  };
}

export async function listApiKeys(deps: Pick<CoreDeps, 'main'>): Promise<ApiKeyResponse[]> {
  return (await deps.main.apiKeys.list()).map(toApiKeyResponse);
}

export async function getApiKey(deps: Pick<CoreDeps, 'main'>, id: string): Promise<ApiKeyResponse> {
  const key = await deps.main.apiKeys.findById(id);
  if (!key) throw notFound(id);
  return toApiKeyResponse(key);
}

/**
 * Applies a change under the store's last-admin guard, which checks that a usable admin key remains at `guardAt`
 * (now, unless the change only takes effect later).
 */
async function applyChange(
  deps: KeyDeps,
  id: string,
  change: ApiKeyChange,
  guardAt: Date = deps.clock.now(),
): Promise<ApiKey | null> {
  const result = await deps.main.apiKeys.applyGuarded(id, change, guardAt);
  if (result.outcome === 'not_found') throw notFound(id);
  if (result.outcome === 'last_admin') throw lastAdmin();
  return result.key;
}

/** Partial update; empty lists clear a restriction; 409 when it would remove the last usable admin key. */
export async function updateApiKey(
  deps: KeyDeps,
  caller: Caller,
  id: string,
  body: UpdateApiKeyBody,
): Promise<ApiKeyResponse> {
  const now = deps.clock.now();
  if (body.expiresAt && Date.parse(body.expiresAt) <= now.getTime()) {
    throw new ValidationError('expiresAt must be in the future');
  }
  const patch: ApiKeyPatch = { updatedAt: now.toISOString() };
  if (body.name !== undefined) patch.name = body.name;
  if (body.role !== undefined) patch.role = body.role;
  if (body.allowedIps !== undefined) patch.allowedIps = body.allowedIps?.length ? body.allowedIps : null;
  if (body.allowedSessions !== undefined) {
    patch.allowedSessions = body.allowedSessions?.length ? body.allowedSessions : null;
  }
  if (body.expiresAt !== undefined)
    patch.expiresAt = body.expiresAt ? new Date(body.expiresAt).toISOString() : null;
  // An expiry on a key that stays admin removes it later rather than now: the guard is evaluated at that instant,
  // so the last usable admin key cannot be given an expiry (nor can one that would outlive every other admin).
  const staysAdmin = patch.role === undefined || patch.role === 'admin';
  const guardAt = patch.expiresAt && staysAdmin ? new Date(patch.expiresAt) : now;
  const key = await applyChange(deps, id, { kind: 'update', patch }, guardAt);
  if (!key) throw notFound(id);
  deps.audit.record(caller, {
    action: 'api_key_updated',
    metadata: { targetKeyId: id, fields: Object.keys(body) },
  });
  return toApiKeyResponse(key);
}

/** Deactivates a key for good; 409 when it is the last usable admin key. */
export async function revokeApiKey(deps: KeyDeps, caller: Caller, id: string): Promise<ApiKeyResponse> {
  const key = await applyChange(deps, id, {
    kind: 'update',
    patch: { isActive: false, updatedAt: deps.clock.now().toISOString() },
  });
  if (!key) throw notFound(id);
  deps.audit.record(caller, {
    action: 'api_key_revoked',
    metadata: { targetKeyId: id, targetKeyName: key.name },
  });
  return toApiKeyResponse(key);
}

/** Deletes a key; 409 when it is the last usable admin key. */
export async function deleteApiKey(deps: KeyDeps, caller: Caller, id: string): Promise<void> {
  await applyChange(deps, id, { kind: 'delete' });
  deps.audit.record(caller, { action: 'api_key_deleted', metadata: { targetKeyId: id } });
}
