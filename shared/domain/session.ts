/** Session: the stored record, its config, request bodies and the response shape (spec "Session"). */
import { z } from 'zod';
import { IsoTimestamp, ResourceName, Uuid } from './common.js';

export const SESSION_STATUSES = [
  'created',
  'initializing',
  'qr_ready',
  'authenticating',
  'ready',
  'disconnected',
  'action_required',
  'failed',
] as const;
export const SessionStatus = z.enum(SESSION_STATUSES);
export type SessionStatus = z.infer<typeof SessionStatus>;

/** Statuses in which an engine is (or should be) running for the session. */
export const RUNNING_STATUSES: ReadonlySet<SessionStatus> = new Set([
  'initializing',
  'qr_ready',
  'authenticating',
  'ready',
  'action_required',
]);

/** Why a start is refused when MAX_CONCURRENT_SESSIONS sessions run already (OpenWA's words). */
export function sessionLimitReason(limit: number): string {
  return `Maximum concurrent sessions reached (${limit})`;
}

/** Keys of `config` the gateway reads; anything else is stored and ignored (spec). */
export const SessionConfig = z
  .object({
    maxReconnectAttempts: z.number().int().min(0).max(20).nullable().optional(),
    reconnectBaseDelay: z.number().int().min(1000).max(300_000).optional(),
    autoRejectCalls: z.boolean().optional(),
  })
  .catchall(z.unknown());
export type SessionConfig = z.infer<typeof SessionConfig>;

/** The stored session row. `proxyUrl` and `config` never leave the gateway in responses. */
export const Session = z.object({
  id: Uuid,
  name: z.string().max(100),
  status: SessionStatus,
  phone: z.string().max(20).nullable(),
  pushName: z.string().max(100).nullable(),
  config: SessionConfig,
  proxyUrl: z.string().max(255).nullable(),
  proxyType: z.string().max(10).nullable(),
  connectedAt: IsoTimestamp.nullable(),
  lastActiveAt: IsoTimestamp.nullable(),
  lastError: z.string().nullable(),
  nodeId: z.string().nullable(),
  nodeUrl: z.string().max(2048).nullable(),
  claimedAt: IsoTimestamp.nullable(),
  leaseExpiresAt: IsoTimestamp.nullable(),
  createdAt: IsoTimestamp,
  updatedAt: IsoTimestamp,
});
export type Session = z.infer<typeof Session>;

export const SessionName = ResourceName.min(3)
  .max(50)
  .regex(/^[a-zA-Z0-9-]+$/, 'letters, digits and hyphens only');

const PROXY_PROTOCOLS = ['http:', 'https:', 'socks4:', 'socks5:'];
export const ProxyUrl = z
  .string()
  .max(255)
  .refine((value) => {
    try {
      return PROXY_PROTOCOLS.includes(new URL(value).protocol);
    } catch {
      return false;
    }
  }, 'must be an http, https, socks4 or socks5 URL');

export const CreateSessionBody = z.strictObject({
  name: SessionName,
  config: SessionConfig.optional(),
  proxyUrl: ProxyUrl.optional(),
  proxyType: z.enum(['http', 'https', 'socks4', 'socks5']).optional(),
});
export type CreateSessionBody = z.infer<typeof CreateSessionBody>;

export const SessionResponse = z
  .object({
    id: Uuid,
    name: z.string(),
    status: SessionStatus,
    phone: z.string().nullable(),
    pushName: z.string().nullable(),
    connectedAt: IsoTimestamp.nullable(),
    lastActive: IsoTimestamp.nullable(),
    createdAt: IsoTimestamp,
    updatedAt: IsoTimestamp,
    lastError: z.string().nullable(),
  })
  .meta({ id: 'Session' });
export type SessionResponse = z.infer<typeof SessionResponse>;

/** The public shape: config, proxy and ownership fields are never exposed. */
export function toSessionResponse(session: Session): SessionResponse {
  return {
    id: session.id,
    name: session.name,
    status: session.status,
    phone: session.phone,
    pushName: session.pushName,
    connectedAt: session.connectedAt,
    lastActive: session.lastActiveAt,
    createdAt: session.createdAt,
    updatedAt: session.updatedAt,
    lastError: session.lastError,
  };
}
