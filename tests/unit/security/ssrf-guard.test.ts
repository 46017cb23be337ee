/**
 * The SSRF guard: which addresses are blocked (every spelling URL parsing normalises, every IPv6 form that embeds
 * an IPv4 address), and how a URL is vetted (schemes, credentials, the allow-list, DNS answers, fail closed).
 */
import { describe, expect, it, jest } from '@jest/globals';
import { ValidationError } from '#shared/errors/app-error.js';
import {
  type AddressClass,
  classifyAddress,
  type HostResolver,
  isBlockedAddress,
  normalizeHost,
  type ResolvedAddress,
  UrlNotAllowedError,
  type UrlRefusal,
  vetUrl,
} from '#shared/security/ssrf-guard.js';

const answers =
  (...addresses: string[]): HostResolver =>
  async () =>
    addresses.map((address): ResolvedAddress => ({ address, family: address.includes(':') ? 6 : 4 }));

async function refusal(url: string, options: Parameters<typeof vetUrl>[1] = {}): Promise<UrlNotAllowedError> {
  const error = await vetUrl(url, options).then(
    () => null,
    (thrown: unknown) => thrown,
  );
  if (!(error instanceof UrlNotAllowedError)) throw new Error(`${url} was not refused: ${String(error)}`);
  return error;
}

describe('classifyAddress', () => {
  it.each<[string, AddressClass]>([
    ['0.0.0.0', 'unspecified'],
    ['0.1.2.3', 'unspecified'],
    ['10.0.0.1', 'private'],
    ['10.255.255.255', 'private'],
    ['100.64.0.1', 'shared'],
    ['100.127.255.255', 'shared'],
    ['127.0.0.1', 'loopback'],
    ['127.255.255.254', 'loopback'],
    ['169.254.169.254', 'link-local'],
    ['172.16.0.1', 'private'],
    ['172.31.255.255', 'private'],
    ['192.0.0.8', 'reserved'],
    ['192.0.2.1', 'documentation'],
    ['192.168.1.1', 'private'],
    ['198.18.0.1', 'benchmarking'],
    ['198.19.255.255', 'benchmarking'],
    ['198.51.100.7', 'documentation'],
    ['203.0.113.9', 'documentation'],
    ['224.0.0.1', 'multicast'],
    ['239.255.255.250', 'multicast'],
    ['240.0.0.1', 'reserved'],
    ['255.255.255.255', 'broadcast'],
    ['::', 'unspecified'],
    ['::1', 'loopback'],
    ['fc00::1', 'unique-local'],
    ['fd12:3456::1', 'unique-local'],
    ['fe80::1', 'link-local'],
    ['febf:ffff::1', 'link-local'],
    ['FE80::1', 'link-local'],
    ['fe80::1%eth0', 'link-local'],
    ['fec0::1', 'private'],
    ['ff02::1', 'multicast'],
    ['2001:db8::1', 'documentation'],
    ['::ffff:127.0.0.1', 'loopback'],
    ['::ffff:7f00:1', 'loopback'],
    ['::FFFF:7F00:1', 'loopback'],
    ['0:0:0:0:0:ffff:10.0.0.1', 'private'],
    ['::ffff:a9fe:a9fe', 'link-local'],
    ['::ffff:0:7f00:1', 'loopback'],
    ['::127.0.0.1', 'loopback'],
    ['::7f00:1', 'loopback'],
    ['::0.0.0.2', 'unspecified'],
    ['64:ff9b::7f00:1', 'loopback'],
    ['64:ff9b::192.168.0.1', 'private'],
    ['64:ff9b:1::808:808', 'reserved'],
    ['2002:7f00:1::', 'loopback'],
    ['2002:c0a8:101::1', 'private'],
    ['2002:a9fe:a9fe::1', 'link-local'],
  ])('%s is %s', (ip, expected) => {
    expect(classifyAddress(ip)).toBe(expected);
    expect(isBlockedAddress(ip)).toBe(true);
  });

  it.each([
    '8.8.8.8',
    '1.1.1.1',
    '11.0.0.1',
    '100.128.0.1',
    '172.32.0.1',
    '192.169.0.1',
    '198.20.0.1',
    '223.255.255.255',
    '2606:4700:4700::1111',
    '2001:4860:4860::8888',
    '::ffff:8.8.8.8',
    '64:ff9b::808:808',
    '2002:808:808::1',
  ])('%s is public', (ip) => {
    expect(classifyAddress(ip)).toBe('public');
    expect(isBlockedAddress(ip)).toBe(false);
  });

  it.each([
    '',
    'localhost',
    'not-an-ip',
    '0177.0.0.1',
    '1.2.3',
    '256.1.1.1',
    ' 8.8.8.8',
    '[::1]',
    '::ffff:999.1.1.1',
    '1::2::3',
  ])('%j is invalid, and so blocked', (ip) => {
    expect(classifyAddress(ip)).toBe('invalid');
    expect(isBlockedAddress(ip)).toBe(true);
  });
});

describe('vetUrl: IP literals', () => {
  // What WHATWG URL parsing turns each host into is what gets checked (and what a client would connect to).
  it.each([
    ['http://127.0.0.1/', '127.0.0.1'],
    ['http://2130706433/', '127.0.0.1'],
    ['http://0x7f.1/', '127.0.0.1'],
    ['http://0x7f000001/', '127.0.0.1'],
    ['http://017700000001/', '127.0.0.1'],
    ['http://0177.0.0.1/', '127.0.0.1'],
    ['http://127.1/', '127.0.0.1'],
    ['http://%31%32%37.0.0.1/', '127.0.0.1'],
    ['http://127.0.0.1./', '127.0.0.1'],
    ['http://0/', '0.0.0.0'],
    ['http://167772161/', '10.0.0.1'],
    ['https://169.254.169.254/latest/meta-data/', '169.254.169.254'],
    ['http://[::1]:8080/', '::1'],
    ['http://[::]/', '::'],
    ['http://[::ffff:127.0.0.1]/', '::ffff:7f00:1'],
    ['http://[0:0:0:0:0:ffff:7f00:1]/', '::ffff:7f00:1'],
    ['http://[::127.0.0.1]/', '::7f00:1'],
    ['http://[64:ff9b::7f00:1]/', '64:ff9b::7f00:1'],
    ['http://[2002:7f00:1::]/', '2002:7f00:1::'],
    ['http://[fd00::1]/', 'fd00::1'],
    ['http://[fe80::1]/', 'fe80::1'],
  ])('%s is refused as %s without asking DNS', async (url, address) => {
    const resolve = jest.fn(answers('8.8.8.8'));
    const error = await refusal(url, { resolve });
    expect(error.reason).toBe('blocked_address');
    expect(error.message).toContain(address);
    expect(resolve).not.toHaveBeenCalled();
  });

  it('passes a public literal and pins it', async () => {
    await expect(vetUrl('https://8.8.8.8:8443/hook?x=1')).resolves.toMatchObject({
      host: '8.8.8.8',
      addresses: [{ address: '8.8.8.8', family: 4 }],
    });
    await expect(vetUrl('http://[2606:4700:4700::1111]/')).resolves.toMatchObject({
      host: '2606:4700:4700::1111',
      addresses: [{ address: '2606:4700:4700::1111', family: 6 }],
    });
  });
});

describe('vetUrl: names', () => {
  it('refuses a name that resolves to loopback, naming the host and the address', async () => {
    const error = await refusal('https://hook.test/in', { resolve: answers('127.0.0.1') });
    expect(error).toBeInstanceOf(ValidationError);
    expect(error).toMatchObject({
      status: 400,
      code: 'URL_NOT_ALLOWED',
      details: { reason: 'blocked_address' },
    });
    expect(error.message).toBe('URL not allowed: hook.test resolves to a loopback address (127.0.0.1)');
  });

  it('refuses a name when any one of its addresses is private', async () => {
    const error = await refusal('https://hook.test/', { resolve: answers('8.8.8.8', '10.0.0.7') });
    expect(error.message).toContain('a private address (10.0.0.7)');
    const mapped = await refusal('https://hook.test/', { resolve: answers('2606:4700::1', '::ffff:7f00:1') });
    expect(mapped.reason).toBe('blocked_address');
  });

  it('passes a name whose every address is public and returns them all to pin', async () => {
    const resolve = jest.fn(answers('8.8.8.8', '2001:4860:4860::8888'));
    await expect(vetUrl('https://Hook.Example/x', { resolve })).resolves.toMatchObject({
      host: 'hook.example',
      addresses: [
        { address: '8.8.8.8', family: 4 },
        { address: '2001:4860:4860::8888', family: 6 },
      ],
    });
    expect(resolve).toHaveBeenCalledWith('hook.example');
  });

  it.each<[string, HostResolver, UrlRefusal, string]>([
    ['no address', answers(), 'unresolvable', 'hook.test resolves to no address'],
    ['an answer that is not an IP', answers('8.8.8.8', 'garbage'), 'blocked_address', 'invalid address'],
    [
      'a failed lookup',
      async () => {
        throw Object.assign(new Error('getaddrinfo ENOTFOUND hook.test'), { code: 'ENOTFOUND' });
      },
      'unresolvable',
      'hook.test could not be resolved (ENOTFOUND)',
    ],
    [
      'a resolver that throws at once',
      () => {
        throw new Error('boom');
      },
      'unresolvable',
      'could not be resolved',
    ],
    ['a lookup that never ends', () => new Promise(() => {}), 'dns_timeout', 'took over 20 ms'],
  ])('refuses on %s (fail closed)', async (_case, resolve, reason, message) => {
    const error = await refusal('http://hook.test/', { resolve, dnsTimeoutMs: 20 });
    expect(error.reason).toBe(reason);
    expect(error.message).toContain(message);
  });
});

describe('vetUrl: shape of the URL', () => {
  it.each([
    'not a url',
    '/relative/path',
    'http://',
    'http://256.1.1.1/',
    'http://1.2.3.4.5/',
    'http://a b/',
  ])('refuses the unparseable %j', async (url) => {
    expect((await refusal(url)).reason).toBe('invalid_url');
  });

  it.each([
    'ftp://example.com/',
    'file:///etc/passwd',
    'gopher://example.com/',
    'ws://example.com/',
    'javascript:alert(1)',
    'data:text/plain,hi',
  ])('refuses the scheme of %s', async (url) => {
    expect((await refusal(url, { allowedHosts: ['example.com'] })).reason).toBe('unsupported_scheme');
  });

  it.each([
    'https://alice:s3cret@example.com/',
    'https://alice@example.com/',
    'https://:s3cret@example.com/',
  ])('refuses credentials in %s, even on an allowed host, without echoing them', async (url) => {
    const error = await refusal(url, { allowedHosts: ['example.com'], resolve: answers('8.8.8.8') });
    expect(error.reason).toBe('credentials');
    expect(error.message).not.toMatch(/alice|s3cret/);
  });
});

describe('vetUrl: allow-list', () => {
  it('lets an allowed host through unchecked and unpinned, whatever its case or trailing dot', async () => {
    const resolve = jest.fn(answers('127.0.0.1'));
    for (const url of ['http://hook.test/', 'http://HOOK.test./x']) {
      await expect(vetUrl(url, { allowedHosts: [' Hook.Test '], resolve })).resolves.toMatchObject({
        addresses: null,
      });
    }
    expect(resolve).not.toHaveBeenCalled();
  });

  it('matches IP entries in their canonical form, with or without brackets', async () => {
    for (const entry of ['[::1]', '::1', '0:0:0:0:0:0:0:1']) {
      await expect(vetUrl('http://[::1]:8080/', { allowedHosts: [entry] })).resolves.toMatchObject({
        host: '::1',
        addresses: null,
      });
    }
    await expect(vetUrl('http://2130706433/', { allowedHosts: ['127.0.0.1'] })).resolves.toMatchObject({
      addresses: null,
    });
  });

  it('lets a checked name resolve to an allowed IP, still pinned, while its other addresses are checked', async () => {
    await expect(
      vetUrl('http://hook.test/', { allowedHosts: ['127.0.0.1'], resolve: answers('127.0.0.1') }),
    ).resolves.toMatchObject({ addresses: [{ address: '127.0.0.1', family: 4 }] });
    const error = await refusal('http://hook.test/', {
      allowedHosts: ['127.0.0.1'],
      resolve: answers('127.0.0.1', '10.0.0.1'),
    });
    expect(error.message).toContain('10.0.0.1');
  });

  it('does not let an allowed name stand for another', async () => {
    const error = await refusal('http://evil.hook.test/', {
      allowedHosts: ['hook.test'],
      resolve: answers('127.0.0.1'),
    });
    expect(error.reason).toBe('blocked_address');
  });
});

describe('normalizeHost', () => {
  it.each([
    ['EXAMPLE.com.', 'example.com'],
    ['[::1]', '::1'],
    ['0:0::1', '::1'],
    ['::FFFF:127.0.0.1', '::ffff:7f00:1'],
    ['bücher.de', 'xn--bcher-kva.de'],
    ['user@host', 'user@host'],
  ])('%s → %s', (host, expected) => {
    expect(normalizeHost(host)).toBe(expected);
  });
});
