/** Client IP resolution behind trusted proxies, and IPv4 allowlist matching (fail closed on anything odd). */

const IPV4 = /^(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/;

/** `::ffff:1.2.3.4` → `1.2.3.4`; other values are trimmed and lowercased. */
export function normalizeIp(ip: string): string {
  const trimmed = ip.trim().toLowerCase();
  return trimmed.startsWith('::ffff:') && IPV4.test(trimmed.slice(7)) ? trimmed.slice(7) : trimmed;
}

/** Dotted-quad IPv4 → its 32-bit value; null for anything else (including an octet over 255). */
export function ipv4ToInt(ip: string): number | null {
  const match = IPV4.exec(ip);
  if (!match) return null;
  let value = 0;
  for (const part of match.slice(1)) {
    const octet = Number(part);
    if (octet > 255) return null;
    value = value * 256 + octet;
  }
  return value;
}

/** True when `ip` equals `entry`, or lies in `entry` when it is an IPv4 CIDR. Malformed input never matches. */
export function ipMatches(ip: string, entry: string): boolean {
  const candidate = normalizeIp(ip);
  const [base, bitsText] = entry.trim().split('/');
  if (base === undefined) return false;
  if (bitsText === undefined) return candidate === normalizeIp(base);
  const bits = Number(bitsText);
  const a = ipv4ToInt(candidate);
  const b = ipv4ToInt(base);
  if (a === null || b === null || !Number.isInteger(bits) || bits < 0 || bits > 32) return false;
  return ipv4InPrefix(a, b, bits);
}

/** True when the 32-bit IPv4 value `ip` shares its first `bits` bits with `base` (bits 0–32). */
export function ipv4InPrefix(ip: number, base: number, bits: number): boolean {
  if (bits === 0) return true;
  const mask = (0xffffffff << (32 - bits)) >>> 0;
  return (ip & mask) >>> 0 === (base & mask) >>> 0;
}

export function ipInList(ip: string, list: readonly string[]): boolean {
  return list.some((entry) => ipMatches(ip, entry));
}

/**
 * The client's address: the socket peer, unless the peer is a trusted proxy, in which case X-Forwarded-For is
 * walked right to left and the first hop that is not itself a trusted proxy wins.
 */
export function resolveClientIp(
  peer: string | null,
  forwardedFor: string | undefined,
  trustedProxies: readonly string[],
): string | null {
  if (!peer) return null;
  const socketIp = normalizeIp(peer);
  if (!forwardedFor || trustedProxies.length === 0 || !ipInList(socketIp, trustedProxies)) return socketIp;
  const hops = forwardedFor
    .split(',')
    .map((hop) => hop.trim())
    .filter(Boolean);
  for (let i = hops.length - 1; i >= 0; i--) {
    const hop = normalizeIp(hops[i] ?? '');
    if (!ipInList(hop, trustedProxies)) return hop;
  }
  return hops.length > 0 ? normalizeIp(hops[0] ?? socketIp) : socketIp;
}
