/** API keys: the stored record (hash only), request bodies and the read shape (keyPrefix, never the key). */
import { z } from 'zod';
import { ChatIdList } from './chat-scope.js';
import { IsoTimestamp, resourceName, Uuid } from './common.js';
import { Role } from './roles.js';

export const API_KEY_PREFIX = 'wg_';
export const KEY_PREFIX_LENGTH = 12;

export const ApiKey = z.object({
  id: z.string(),
  name: z.string().max(100),
  keyHash: z.string().length(64),
  keyPrefix: z.string().max(12),
  role: Role,
  allowedIps: z.array(z.string()).nullable(),
  allowedSessions: z.array(z.string()).nullable(),
  /** null: every chat; otherwise only these (neutral ids: `<number>@c.us`, `<id>@g.us`, `<id>@lid`). */
  allowedChats: z.array(z.string()).nullable(),
  isActive: z.boolean(),
  expiresAt: IsoTimestamp.nullable(),
  lastUsedAt: IsoTimestamp.nullable(),
  usageCount: z.number().int().min(0),
  createdAt: IsoTimestamp,
  updatedAt: IsoTimestamp,
});
export type ApiKey = z.infer<typeof ApiKey>;

/** IPv4 address or IPv4 CIDR (/0–32); IPv6 allowlists are not supported. */
const Ipv4OrCidr = z
  .string()
  .regex(
    /^(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)(\.(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)){3}(\/(3[0-2]|[12]?\d))?$/,
    'must be an IPv4 address or IPv4 CIDR',
  );

/** Ids of existing sessions (the use case checks that they exist); at most 100, none repeated. */
const SessionIdList = z
  .array(Uuid)
  .max(100)
  .refine((list) => new Set(list).size === list.length, 'must not repeat an id')
  // zod cannot state uniqueness in JSON Schema; the refinement above checks what this says.
  .meta({ uniqueItems: true });

/** An API key's name: a resource name of 3–100 characters. */
export const ApiKeyName = resourceName(3, 100);

/**
 * A date-time with its offset. That it lies in the future depends on when the request arrives, which no schema can
 * say: the use case refuses a past one (400 VALIDATION_FAILED), and the OpenAPI document says so in words.
 */
const ExpiresAt = z.iso.datetime({ offset: true }).meta({
  description:
    'When the key stops working: a date-time with its offset, which must be in the future when the request is ' +
    'handled (a past one is refused with 400 VALIDATION_FAILED).',
});

export const CreateApiKeyBody = z.strictObject({
  name: ApiKeyName,
  role: Role.default('operator'),
  allowedIps: z.array(Ipv4OrCidr).max(100).optional(),
  allowedSessions: SessionIdList.optional(),
  allowedChats: ChatIdList.optional(),
  expiresAt: ExpiresAt.optional(),
});
export type CreateApiKeyBody = z.infer<typeof CreateApiKeyBody>;

export const UpdateApiKeyBody = z.strictObject({
  name: ApiKeyName.optional(),
  role: Role.optional(),
  allowedIps: z.array(Ipv4OrCidr).max(100).nullable().optional(),
  allowedSessions: SessionIdList.nullable().optional(),
  allowedChats: ChatIdList.nullable().optional(),
  expiresAt: ExpiresAt.nullable().optional(),
});
export type UpdateApiKeyBody = z.infer<typeof UpdateApiKeyBody>;

export const ApiKeyResponse = z
  .object({
    id: z.string(),
    name: z.string(),
    keyPrefix: z.string(),
    role: Role,
    allowedIps: z.array(z.string()).nullable(),
    allowedSessions: z.array(z.string()).nullable(),
    allowedChats: z.array(z.string()).nullable(),
    isActive: z.boolean(),
    expiresAt: IsoTimestamp.nullable(),
    lastUsedAt: IsoTimestamp.nullable(),
    usageCount: z.number().int(),
    createdAt: IsoTimestamp,
    updatedAt: IsoTimestamp,
  })
  .meta({ id: 'ApiKey' });
export type ApiKeyResponse = z.infer<typeof ApiKeyResponse>;

export const CreatedApiKeyResponse = ApiKeyResponse.extend({ apiKey: z.string() }).meta({
  id: 'CreatedApiKey',
});
export type CreatedApiKeyResponse = z.infer<typeof CreatedApiKeyResponse>;

export function toApiKeyResponse(key: ApiKey): ApiKeyResponse {
  return {
    id: key.id,
    name: key.name,
    keyPrefix: key.keyPrefix,
    role: key.role,
    allowedIps: key.allowedIps,
    allowedSessions: key.allowedSessions,
    allowedChats: key.allowedChats,
    isActive: key.isActive,
    expiresAt: key.expiresAt,
    lastUsedAt: key.lastUsedAt,
    usageCount: key.usageCount,
    createdAt: key.createdAt,
    updatedAt: key.updatedAt,
  };
}

/** A key is usable when it is active and not expired at `now`. */
export function isUsable(key: Pick<ApiKey, 'isActive' | 'expiresAt'>, now: Date): boolean {
  return key.isActive && (key.expiresAt === null || Date.parse(key.expiresAt) > now.getTime());
}

/** True when an allowlist restricts anything: null and an empty list both mean "no restriction". */
export function restricts(list: readonly string[] | null): boolean {
  return list !== null && list.length > 0;
}

/**
 * The one definition of a usable admin key, which the last-admin guard keeps at least one of: role admin, usable
 * at `now`, not scoped to sessions or chats (admin routes need an unscoped key) and without an IP allowlist (the
 * operator's address may change, and the API cannot know their future one).
 */
export function isUsableAdmin(key: ApiKey, now: Date): boolean {
  return (
    key.role === 'admin' &&
    isUsable(key, now) &&
    !restricts(key.allowedSessions) &&
    !restricts(key.allowedChats) &&
    !restricts(key.allowedIps)
  );
}

/**
 * The last-admin guard, the same in every store: replacing `before` by `after` (null: deleting it) is refused when
 * it takes away a usable admin key at `now` and no other key is one. `others` (every other key, or at least every
 * other active admin) is only read when the change takes one away.
 */
export function removesLastUsableAdmin(
  before: ApiKey,
  after: ApiKey | null,
  others: () => Iterable<ApiKey>,
  now: Date,
): boolean {
  if (!isUsableAdmin(before, now) || (after !== null && isUsableAdmin(after, now))) return false;
  for (const key of others()) if (key.id !== before.id && isUsableAdmin(key, now)) return false;
  return true;
}
