import { describe, expect, it } from '@jest/globals';
import { ipInList, ipMatches, normalizeIp, resolveClientIp } from '#shared/security/ip.js';

describe('ipMatches', () => {
  it.each([
    ['10.0.0.5', '10.0.0.5', true],
    ['10.0.0.5', '10.0.0.6', false],
    ['::ffff:10.0.0.5', '10.0.0.5', true],
    ['10.1.200.7', '10.1.0.0/16', true],
    ['10.2.0.1', '10.1.0.0/16', false],
    ['8.8.8.8', '0.0.0.0/0', true],
    ['192.168.1.1', '192.168.1.1/32', true],
    ['192.168.1.2', '192.168.1.1/32', false],
    ['10.0.0.1', '10.0.0.0/33', false],
    ['10.0.0.1', '10.0.0.0/x', false],
    ['not-an-ip', '10.0.0.0/8', false],
    ['300.1.1.1', '0.0.0.0/0', false],
  ])('%s against %s → %s', (ip, entry, expected) => {
    expect(ipMatches(ip, entry)).toBe(expected);
  });

  it('matches against any entry of a list', () => {
    expect(ipInList('10.0.0.9', ['1.1.1.1', '10.0.0.0/24'])).toBe(true);
    expect(ipInList('10.0.1.9', ['1.1.1.1', '10.0.0.0/24'])).toBe(false);
  });

  it('normalises IPv4-mapped IPv6 and case', () => {
    expect(normalizeIp(' ::FFFF:1.2.3.4 ')).toBe('1.2.3.4');
    expect(normalizeIp('::1')).toBe('::1');
  });
});

describe('resolveClientIp', () => {
  it('uses the socket peer when it is not a trusted proxy, ignoring X-Forwarded-For', () => {
    expect(resolveClientIp('203.0.113.9', '10.9.9.9', ['127.0.0.1'])).toBe('203.0.113.9');
    expect(resolveClientIp('127.0.0.1', '10.9.9.9', [])).toBe('127.0.0.1');
  });

  it('walks X-Forwarded-For right to left past trusted proxies', () => {
    expect(
      resolveClientIp('127.0.0.1', '198.51.100.1, 10.0.0.2, 10.0.0.3', ['127.0.0.1', '10.0.0.0/8']),
    ).toBe('198.51.100.1');
    expect(resolveClientIp('127.0.0.1', 'spoofed, 198.51.100.7', ['127.0.0.1'])).toBe('198.51.100.7');
  });

  it('answers null when the peer is unknown (allowlists then fail closed)', () => {
    expect(resolveClientIp(null, '1.2.3.4', ['127.0.0.1'])).toBeNull();
  });
});
