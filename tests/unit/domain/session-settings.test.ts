import { describe, expect, it } from '@jest/globals';
import { mergeSessionConfig, resolveSessionConfig } from '#shared/domain/session-config.js';
import { parseProxyUrl, toSessionProxyResponse } from '#shared/domain/session-proxy.js';

describe('resolveSessionConfig', () => {
  it('fills the defaults: calls not rejected, unlimited attempts, 5000 ms', () => {
    expect(resolveSessionConfig({})).toEqual({
      autoRejectCalls: false,
      maxReconnectAttempts: null,
      reconnectBaseDelay: 5000,
    });
  });

  it('clamps stored values out of range (a row an older version or an import wrote) and floors fractions', () => {
    expect(resolveSessionConfig({ maxReconnectAttempts: 99, reconnectBaseDelay: 10 })).toMatchObject({
      maxReconnectAttempts: 20,
      reconnectBaseDelay: 1000,
    });
    expect(resolveSessionConfig({ maxReconnectAttempts: -3, reconnectBaseDelay: 1e9 })).toMatchObject({
      maxReconnectAttempts: 0,
      reconnectBaseDelay: 300_000,
    });
    expect(resolveSessionConfig({ maxReconnectAttempts: 2.7 }).maxReconnectAttempts).toBe(2);
  });

  it('defaults values of the wrong type', () => {
    const stored = { maxReconnectAttempts: '3', reconnectBaseDelay: 'x', autoRejectCalls: 'true' };
    expect(resolveSessionConfig(stored as never)).toEqual(resolveSessionConfig({}));
  });
});

describe('mergeSessionConfig', () => {
  it('sets given keys, removes null ones, keeps the rest (unread keys included), leaves the input alone', () => {
    const current = { maxReconnectAttempts: 3, autoRejectCalls: true, custom: 'kept' };
    const merged = mergeSessionConfig(current, { autoRejectCalls: null, reconnectBaseDelay: 2000 });
    expect(merged).toEqual({ maxReconnectAttempts: 3, custom: 'kept', reconnectBaseDelay: 2000 });
    expect(current).toEqual({ maxReconnectAttempts: 3, autoRejectCalls: true, custom: 'kept' });
  });
});

describe('session proxy', () => {
  it('takes a proxy URL apart, credentials decoded and default ports filled in', () => {
    expect(parseProxyUrl('socks5://us%40er:p%3Ass@proxy.example')).toEqual({
      type: 'socks5',
      host: 'proxy.example',
      port: 1080,
      username: 'us@er',
      password: 'p:ss',
    });
    expect(parseProxyUrl('https://[::1]:8443')).toEqual({ type: 'https', host: '::1', port: 8443 });
    expect(parseProxyUrl('ftp://proxy.example')).toBeNull();
    expect(parseProxyUrl(null)).toBeNull();
  });

  it('masks: host:port and whether there are credentials, never the credentials', () => {
    const view = toSessionProxyResponse({ proxyUrl: 'http://user:secret@10.0.0.1:3128' });
    expect(view).toEqual({
      enabled: true,
      proxyType: 'http',
      proxyHost: '10.0.0.1:3128',
      hasCredentials: true,
    });
    expect(JSON.stringify(view)).not.toMatch(/secret|user/);
  });
});
