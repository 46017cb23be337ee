/**
 * SSRF guard for URLs the gateway connects to on a user's behalf (webhook deliveries, media fetches). It decides
 * whether a URL may be reached and returns the addresses it vetted, so the caller can pin the connection to them:
 * a DNS answer that changes between the check and the connect (rebinding) then cannot move it inward.
 */
import { lookup } from 'node:dns/promises';
import { isIP } from 'node:net';
import { ValidationError } from '#shared/errors/app-error.js';
import { ipv4InPrefix, ipv4ToInt } from './ip.js';

/** What an address is; `public` is the only class a guarded connection may reach. */
export type AddressClass =
  | 'public'
  | 'invalid'
  | 'unspecified'
  | 'loopback'
  | 'private'
  | 'shared'
  | 'link-local'
  | 'reserved'
  | 'documentation'
  | 'benchmarking'
  | 'multicast'
  | 'broadcast'
  | 'unique-local';

type BlockedClass = Exclude<AddressClass, 'public'>;

function range(cidr: string, addressClass: BlockedClass): readonly [number, number, BlockedClass] {
  const [base = '', bits = ''] = cidr.split('/');
  const value = ipv4ToInt(base);
  if (value === null) throw new Error(`Bad built-in range ${cidr}`);
  return [value, Number(bits), addressClass];
}

/** First match wins, which only matters for the label: 255.255.255.255 is a broadcast, not just 240/4. */
const BLOCKED_IPV4 = [
  range('0.0.0.0/8', 'unspecified'),
  range('10.0.0.0/8', 'private'),
  range('100.64.0.0/10', 'shared'),
  range('127.0.0.0/8', 'loopback'),
  range('169.254.0.0/16', 'link-local'),
  range('172.16.0.0/12', 'private'),
  range('192.0.0.0/24', 'reserved'),
  range('192.0.2.0/24', 'documentation'),
  range('192.168.0.0/16', 'private'),
  range('198.18.0.0/15', 'benchmarking'),
  range('198.51.100.0/24', 'documentation'),
  range('203.0.113.0/24', 'documentation'),
  range('224.0.0.0/4', 'multicast'),
  range('255.255.255.255/32', 'broadcast'),
  range('240.0.0.0/4', 'reserved'),
];

function classifyIpv4(value: number): AddressClass {
  for (const [base, bits, addressClass] of BLOCKED_IPV4) {
    if (ipv4InPrefix(value, base, bits)) return addressClass;
  }
  return 'public';
}

/** The eight 16-bit groups of an address `isIP` already accepted: only the `::` gap and a dotted tail are left. */
function ipv6Groups(ip: string): number[] | null {
  let text = ip;
  const dotted = /\d+\.\d+\.\d+\.\d+$/.exec(text);
  if (dotted) {
    const value = ipv4ToInt(dotted[0]);
    if (value === null) return null;
    text = `${text.slice(0, dotted.index)}${(value >>> 16).toString(16)}:${(value & 0xffff).toString(16)}`;
  }
  const halves = text.split('::');
  if (halves.length > 2) return null;
  const groupsOf = (part: string | undefined) =>
    part ? part.split(':').map((group) => Number.parseInt(group, 16)) : [];
  const head = groupsOf(halves[0]);
  const tail = groupsOf(halves[1]);
  const gap = 8 - head.length - tail.length;
  if (gap < 0 || (halves.length === 1 && gap !== 0)) return null;
  const groups = [...head, ...new Array<number>(gap).fill(0), ...tail];
  return groups.every((group) => Number.isInteger(group) && group >= 0 && group <= 0xffff) ? groups : null;
}

function classifyIpv6(groups: readonly number[]): AddressClass {
  const at = (index: number) => groups[index] ?? 0;
  const zeroBefore = (end: number) => groups.slice(0, end).every((group) => group === 0);
  // An address that carries an IPv4 address is as dangerous as that address: the network may translate it there.
  const embedded = (high: number) => classifyIpv4(at(high) * 0x10000 + at(high + 1));
  const first = at(0);
  if (zeroBefore(8)) return 'unspecified';
  if (zeroBefore(7) && at(7) === 1) return 'loopback';
  if (zeroBefore(5) && at(5) === 0xffff) return embedded(6); // IPv4-mapped ::ffff:0:0/96
  if (zeroBefore(4) && at(4) === 0xffff && at(5) === 0) return embedded(6); // IPv4-translated ::ffff:0:0:0/96
  if (zeroBefore(6)) return embedded(6); // IPv4-compatible ::/96
  if (first === 0x64 && at(1) === 0xff9b) {
    if (at(2) === 0 && at(3) === 0 && at(4) === 0 && at(5) === 0) return embedded(6); // NAT64 64:ff9b::/96
    // Local-use NAT64 (64:ff9b:1::/48) may embed the IPv4 address at several offsets, so no one reading is safe.
    if (at(2) === 1) return 'reserved';
  }
  if (first === 0x2002) return embedded(1); // 6to4 2002::/16
  if ((first & 0xfe00) === 0xfc00) return 'unique-local';
  if ((first & 0xffc0) === 0xfe80) return 'link-local';
  if ((first & 0xffc0) === 0xfec0) return 'private'; // deprecated site-local, still routed inside old networks
  if ((first & 0xff00) === 0xff00) return 'multicast';
  if (first === 0x2001 && at(1) === 0x0db8) return 'documentation';
  return 'public';
}

/** The class of an IP address as text; anything that is not an IP address is `invalid`. */
export function classifyAddress(ip: string): AddressClass {
  const family = isIP(ip);
  if (family === 4) {
    const value = ipv4ToInt(ip);
    return value === null ? 'invalid' : classifyIpv4(value);
  }
  if (family !== 6) return 'invalid';
  // A zone index (fe80::1%eth0) only has a meaning on a link-scoped address.
  if (ip.includes('%')) return 'link-local';
  const groups = ipv6Groups(ip.toLowerCase());
  return groups ? classifyIpv6(groups) : 'invalid';
}

/** True for every address a guarded connection must not reach (fail closed: invalid input is blocked). */
export function isBlockedAddress(ip: string): boolean {
  return classifyAddress(ip) !== 'public';
}

/** Why a URL was refused: stable strings a caller can record or branch on. */
export type UrlRefusal =
  | 'invalid_url'
  | 'unsupported_scheme'
  | 'credentials'
  | 'blocked_address'
  | 'unresolvable'
  | 'dns_timeout';

/** 400 URL_NOT_ALLOWED. The message says why without repeating the URL, which may carry secrets. */
export class UrlNotAllowedError extends ValidationError {
  readonly reason: UrlRefusal;
  constructor(reason: UrlRefusal, why: string, cause?: unknown) {
    super(`URL not allowed: ${why}`, { code: 'URL_NOT_ALLOWED', details: { reason }, cause });
    this.reason = reason;
  }
}

export interface ResolvedAddress {
  readonly address: string;
  readonly family: number;
}

/** Every address a host name resolves to; injectable so tests can stage any DNS answer. */
export type HostResolver = (host: string) => Promise<readonly ResolvedAddress[]>;

/** `dns.lookup` with `all: true`: the addresses a connection would use, /etc/hosts included. */
export const systemResolver: HostResolver = (host) => lookup(host, { all: true });

export const DEFAULT_DNS_TIMEOUT_MS = 5_000;

export interface VetOptions {
  /**
   * Host names or IP literals the guard lets through (case-insensitive, IPv6 with or without brackets): a URL whose
   * host is listed is not checked and not pinned; a listed IP also passes when a checked name resolves to it.
   */
  readonly allowedHosts?: readonly string[];
  readonly resolve?: HostResolver;
  readonly dnsTimeoutMs?: number;
}

export interface VettedAddress {
  readonly address: string;
  readonly family: 4 | 6;
}

export interface VettedUrl {
  readonly url: URL;
  /** The URL's host without IPv6 brackets: what the Host header and TLS SNI carry. */
  readonly host: string;
  /** The addresses to connect to, all checked; null when the host is allow-listed (connect as usual). */
  readonly addresses: readonly VettedAddress[] | null;
}

const PLAIN_HOST = /^[^/?#@\\\s:[\]]+$/;

/**
 * A host in the form URL parsing gives it (lowercase, punycode, canonical IP), without brackets or a trailing
 * dot, so an allow-list entry and a URL's host compare equal however each was spelt.
 */
export function normalizeHost(host: string): string {
  const bare = host.trim().replace(/^\[(.*)\]$/, '$1');
  let canonical = bare.toLowerCase();
  const parseable = isIP(bare) === 6 ? `[${bare}]` : PLAIN_HOST.test(bare) ? bare : null;
  if (parseable !== null) {
    try {
      canonical = new URL(`http://${parseable}/`).hostname;
    } catch {
      // Not a host URL parsing accepts: it can only match a URL host spelt the same way, which none is.
    }
  }
  return canonical.replace(/^\[(.*)\]$/, '$1').replace(/\.$/, '');
}

const ARTICLE: Record<BlockedClass, string> = {
  invalid: 'an invalid',
  unspecified: 'an unspecified',
  loopback: 'a loopback',
  private: 'a private',
  shared: 'a shared (CGNAT)',
  'link-local': 'a link-local',
  reserved: 'a reserved',
  documentation: 'a documentation',
  benchmarking: 'a benchmarking',
  multicast: 'a multicast',
  broadcast: 'a broadcast',
  'unique-local': 'a unique-local',
};

async function resolveHost(host: string, resolve: HostResolver, timeoutMs: number) {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () => reject(new UrlNotAllowedError('dns_timeout', `resolving ${host} took over ${timeoutMs} ms`)),
      timeoutMs,
    );
  });
  try {
    return await Promise.race([Promise.resolve().then(() => resolve(host)), timeout]);
  } catch (error) {
    if (error instanceof UrlNotAllowedError) throw error;
    const detail =
      error instanceof Error && 'code' in error && typeof error.code === 'string' ? ` (${error.code})` : '';
    throw new UrlNotAllowedError('unresolvable', `${host} could not be resolved${detail}`, error);
  } finally {
    clearTimeout(timer);
  }
}

/**
 * Checks a URL before the gateway connects to it: http(s) only, no credentials, and unless the host is allow-listed,
 * every address it stands for must be public (an IP literal as written after URL parsing, which turns spellings such
 * as `2130706433` or `0x7f.1` into dotted form; a name as every address DNS gives). Throws UrlNotAllowedError.
 */
export async function vetUrl(raw: string, options: VetOptions = {}): Promise<VettedUrl> {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new UrlNotAllowedError('invalid_url', 'it is not a valid absolute URL');
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new UrlNotAllowedError('unsupported_scheme', 'only http and https URLs are allowed');
  }
  if (url.username !== '' || url.password !== '') {
    throw new UrlNotAllowedError('credentials', 'it carries credentials (user:pass@)');
  }
  const host = url.hostname.replace(/^\[(.*)\]$/, '$1');
  const allowed = new Set((options.allowedHosts ?? []).map(normalizeHost));
  if (allowed.has(normalizeHost(host))) return { url, host, addresses: null };

  const literal = isIP(host);
  const resolved =
    literal === 0
      ? await resolveHost(
          host,
          options.resolve ?? systemResolver,
          options.dnsTimeoutMs ?? DEFAULT_DNS_TIMEOUT_MS,
        )
      : [{ address: host, family: literal }];
  if (resolved.length === 0) throw new UrlNotAllowedError('unresolvable', `${host} resolves to no address`);
  const addresses: VettedAddress[] = [];
  for (const { address } of resolved) {
    const family = isIP(address);
    const addressClass =
      family !== 0 && allowed.has(normalizeHost(address)) ? 'public' : classifyAddress(address);
    if (addressClass !== 'public') {
      const what =
        literal === 0
          ? `${host} resolves to ${ARTICLE[addressClass]} address (${address})`
          : `${host} is ${ARTICLE[addressClass]} address`;
      throw new UrlNotAllowedError('blocked_address', what);
    }
    addresses.push({ address, family: family === 6 ? 6 : 4 });
  }
  return { url, host, addresses };
}
