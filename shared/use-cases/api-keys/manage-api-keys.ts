/** API key administration (admin, unscoped): create, list, get, update, revoke, delete, with last-admin guards. */
import { randomUUID } from 'node:crypto';
import {
  type ApiKey,
  type ApiKeyResponse,
  type CreateApiKeyBody,
  type CreatedApiKeyResponse,
  restricts,
  toApiKeyResponse,
  type UpdateApiKeyBody,
} from '#shared/domain/api-key.js';
import type { Caller } from '#shared/domain/caller.js';
import { ConflictError, NotFoundError, ValidationError } from '#shared/errors/app-error.js';
import type { ApiKeyChange, ApiKeyPatch } from '#shared/ports/api-key-store.port.js';
import { apiKeyPrefix, generateApiKey, hashApiKey } from '#shared/security/secrets.js';
import type { CoreDeps } from '#shared/use-cases/core-deps.js';

type KeyDeps = Pick<CoreDeps, 'main' | 'data' | 'audit' | 'clock'>;

const notFound = (id: string) => new NotFoundError(`API key '${id}' not found`);

/** 409 LAST_ADMIN_KEY naming the refused change (`refused` completes "Refused to …"). */
const lastAdmin = (refused: string) =>
  new ConflictError(
    'LAST_ADMIN_KEY',
    `Refused to ${refused}: no usable admin key (an active, unexpired admin key that is neither scoped to ` +
      'sessions or chats nor limited to client IPs) would remain. Create another admin key first.',
  );

/** The fields of an update that take a key away from being a usable admin, for the 409 message. */
function describeRefusedUpdate(patch: ApiKeyPatch): string {
  const fields: string[] = [];
  if (patch.role !== undefined && patch.role !== 'admin') fields.push(`role to ${patch.role}`);
  if (restricts(patch.allowedSessions ?? null)) fields.push('allowedSessions');
  if (restricts(patch.allowedChats ?? null)) fields.push('allowedChats');
  if (restricts(patch.allowedIps ?? null)) fields.push('allowedIps');
  if (patch.expiresAt) fields.push(`expiresAt ${patch.expiresAt}`);
  return `change the last usable admin key (${fields.join(', ')})`;
}

/** 400 unless every id names an existing session (a scope of unknown ids would silently grant nothing). */
async function assertSessionsExist(deps: Pick<CoreDeps, 'data'>, ids: readonly string[] | null | undefined) {
  if (!ids?.length) return;
  const found = await Promise.all(ids.map((id) => deps.data.sessions.findById(id)));
  const missing = ids.flatMap((id, index) => (found[index] === null ? [{ id, index }] : []));
  if (missing.length === 0) return;
  throw new ValidationError(
    `allowedSessions names sessions that do not exist: ${missing.map((m) => m.id).join(', ')}`,
    {
      details: missing.map(({ id, index }) => ({
        path: `body.allowedSessions.${index}`,
        message: `no session with id ${id}`,
      })),
    },
  );
}

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
  await assertSessionsExist(deps, body.allowedSessions);
  const plaintext = generateApiKey();
  const key = newKeyRecord(plaintext, body, now);
  await deps.main.apiKeys.create(key);
  await deps.audit.record(caller, {
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
    allowedChats: body.allowedChats && body.allowedChats.length > 0 ? body.allowedChats : null,
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
  refused: string,
  guardAt: Date = deps.clock.now(),
): Promise<ApiKey | null> {
  const result = await deps.main.apiKeys.applyGuarded(id, change, guardAt);
  if (result.outcome === 'not_found') throw notFound(id);
  if (result.outcome === 'last_admin') throw lastAdmin(refused);
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
  await assertSessionsExist(deps, body.allowedSessions);
  const patch: ApiKeyPatch = { updatedAt: now.toISOString() };
  if (body.name !== undefined) patch.name = body.name;
  if (body.role !== undefined) patch.role = body.role;
  if (body.allowedIps !== undefined) patch.allowedIps = body.allowedIps?.length ? body.allowedIps : null;
  if (body.allowedSessions !== undefined) {
    patch.allowedSessions = body.allowedSessions?.length ? body.allowedSessions : null;
  }
  if (body.allowedChats !== undefined)
    patch.allowedChats = body.allowedChats?.length ? body.allowedChats : null;
  if (body.expiresAt !== undefined)
    patch.expiresAt = body.expiresAt ? new Date(body.expiresAt).toISOString() : null;
  // An expiry on a key that otherwise stays a usable admin removes it later rather than now: the guard is evaluated
  // at that instant, so the last usable admin key cannot be given an expiry (nor can one that would outlive every
  // other admin). A change that disqualifies it at once (role, scope, IPs) is judged now.
  const disqualifiesNow =
    (patch.role !== undefined && patch.role !== 'admin') ||
    restricts(patch.allowedSessions ?? null) ||
    restricts(patch.allowedChats ?? null) ||
    restricts(patch.allowedIps ?? null);
  const guardAt = patch.expiresAt && !disqualifiesNow ? new Date(patch.expiresAt) : now;
  const change: ApiKeyChange = { kind: 'update', patch };
  const key = await applyChange(deps, id, change, describeRefusedUpdate(patch), guardAt);
  if (!key) throw notFound(id);
  await deps.audit.record(caller, {
    action: 'api_key_updated',
    metadata: { targetKeyId: id, fields: Object.keys(body) },
  });
  return toApiKeyResponse(key);
}

/** Deactivates a key for good; 409 when it is the last usable admin key. */
export async function revokeApiKey(deps: KeyDeps, caller: Caller, id: string): Promise<ApiKeyResponse> {
  const key = await applyChange(
    deps,
    id,
    { kind: 'update', patch: { isActive: false, updatedAt: deps.clock.now().toISOString() } },
    'revoke the last usable admin key',
  );
  if (!key) throw notFound(id);
  await deps.audit.record(caller, {
    action: 'api_key_revoked',
    metadata: { targetKeyId: id, targetKeyName: key.name },
  });
  return toApiKeyResponse(key);
}

/** Deletes a key; 409 when it is the last usable admin key. */
export async function deleteApiKey(deps: KeyDeps, caller: Caller, id: string): Promise<void> {
  await applyChange(deps, id, { kind: 'delete' }, 'delete the last usable admin key');
  await deps.audit.record(caller, { action: 'api_key_deleted', metadata: { targetKeyId: id } });
}
