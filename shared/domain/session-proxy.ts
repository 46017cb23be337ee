/**
 * A session's proxy (spec "Session": `proxyUrl`, `proxyType`): the masked view GET /api/sessions/{id}/proxy answers
 * (never the URL: its credentials stay in the row) and the PATCH body. The URL's scheme is the proxy's type.
 */
import { z } from 'zod';
import { ProxyUrl, type Session } from './session.js';

export const PROXY_TYPES = ['http', 'https', 'socks4', 'socks5'] as const;
export type ProxyType = (typeof PROXY_TYPES)[number];

/** The port a proxy URL without one means. */
const DEFAULT_PORTS: Record<ProxyType, number> = { http: 80, https: 443, socks4: 1080, socks5: 1080 };

/** A proxy URL taken apart: what an engine connects through. */
export interface ProxyTarget {
  type: ProxyType;
  host: string;
  port: number;
  /** Decoded; undefined when the URL names no user. */
  username?: string;
  password?: string;
}

/** The proxy a stored URL names, or null (no proxy, or a URL that is no proxy URL). */
export function parseProxyUrl(url: string | null): ProxyTarget | null {
  if (url === null) return null;
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return null;
  }
  const type = parsed.protocol.slice(0, -1) as ProxyType;
  if (!PROXY_TYPES.includes(type)) return null;
  // The URL parser keeps an IPv6 host in brackets; sockets want it without.
  const host = parsed.hostname.replace(/^\[(.*)\]$/, '$1');
  const port = parsed.port === '' ? DEFAULT_PORTS[type] : Number(parsed.port);
  return {
    type,
    host,
    port,
    ...(parsed.username ? { username: decodeURIComponent(parsed.username) } : {}),
    ...(parsed.password ? { password: decodeURIComponent(parsed.password) } : {}),
  };
}

/** `host:port` of a proxy, IPv6 hosts in brackets: how logs, errors and the masked view name it. */
export function proxyHostOf(target: ProxyTarget): string {
  return `${target.host.includes(':') ? `[${target.host}]` : target.host}:${target.port}`;
}

export const SessionProxyResponse = z
  .object({
    enabled: z.boolean(),
    proxyType: z.enum(PROXY_TYPES).nullable(),
    proxyHost: z.string().nullable().describe('host:port of the proxy; never its credentials.'),
    hasCredentials: z.boolean(),
  })
  .meta({ id: 'SessionProxy' });
export type SessionProxyResponse = z.infer<typeof SessionProxyResponse>;

/** The masked view of the session's proxy. */
export function toSessionProxyResponse(session: Pick<Session, 'proxyUrl'>): SessionProxyResponse {
  const target = parseProxyUrl(session.proxyUrl);
  if (!target) return { enabled: false, proxyType: null, proxyHost: null, hasCredentials: false };
  return {
    enabled: true,
    proxyType: target.type,
    proxyHost: proxyHostOf(target),
    hasCredentials: target.username !== undefined || target.password !== undefined,
  };
}

/** PATCH body: the new proxy URL, or null to connect directly. */
export const UpdateSessionProxyBody = z.strictObject({ proxyUrl: ProxyUrl.nullable() });
export type UpdateSessionProxyBody = z.infer<typeof UpdateSessionProxyBody>;
