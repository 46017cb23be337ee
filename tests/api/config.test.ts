/**
 * Configuration fails fast with one error naming every bad variable, and limits fall back to their defaults for
 * missing, blank, non-positive or non-numeric values (spec "Limit env fallback").
 */
import { describe, expect, it } from '@jest/globals';
import { EnvError, loadEnv } from '#shared/config/env.js';

function problemsOf(source: Record<string, string>): string[] {
  try {
    loadEnv(source);
  } catch (error) {
    expect(error).toBeInstanceOf(EnvError);
    return (error as EnvError).problems;
  }
  throw new Error('loadEnv accepted the configuration');
}

describe('loadEnv', () => {
  it('names every bad variable in one EnvError', () => {
    const source = { PORT: 'abc', BODY_SIZE_LIMIT: 'lots', ENGINE: 'nope' };
    expect(() => loadEnv(source)).toThrow(EnvError);
    const problems = problemsOf(source);
    for (const name of ['PORT', 'BODY_SIZE_LIMIT', 'ENGINE']) {
      expect([name, problems.some((p) => p.startsWith(`${name}:`))]).toEqual([name, true]);
    }
    expect(problems).toHaveLength(3);
    let message = '';
    try {
      loadEnv(source);
    } catch (error) {
      message = (error as Error).message;
    }
    for (const name of ['PORT', 'BODY_SIZE_LIMIT', 'ENGINE']) expect(message).toContain(`- ${name}: `);
  });

  it.each([
    ['PORT', '70000'],
    ['PORT', '-1'],
    ['BODY_SIZE_LIMIT', '0'],
    ['BODY_SIZE_LIMIT', '10tb'],
    ['LOG_LEVEL', 'loud'],
    ['BOOTSTRAP_ADMIN_KEY', 'wg_short'],
    ['BOOTSTRAP_ADMIN_KEY', `wg_${'A'.repeat(64)}`],
  ])('refuses %s=%s', (name, value) => {
    const problems = problemsOf({ [name]: value });
    expect(problems).toHaveLength(1);
    expect(problems[0]?.startsWith(`${name}:`)).toBe(true);
  });

  it('does not echo a malformed BOOTSTRAP_ADMIN_KEY (a secret) in the error', () => {
    const secret = `wg_${'Z'.repeat(64)}`;
    expect(problemsOf({ BOOTSTRAP_ADMIN_KEY: secret }).join('\n')).not.toContain(secret);
  });

  it.each(['', '   ', '0', '-5', 'x', '1e', 'NaN', 'Infinity'])(
    'RATE_LIMIT_MAX=%j falls back to 100',
    (value) => {
      expect(loadEnv({ RATE_LIMIT_MAX: value }).RATE_LIMIT_MAX).toBe(100);
    },
  );

  it('other limits fall back the same way, and good values are used', () => {
    expect(loadEnv({}).RATE_LIMIT_MAX).toBe(100);
    expect(loadEnv({ RATE_LIMIT_MAX: '5' }).RATE_LIMIT_MAX).toBe(5);
    expect(loadEnv({ RATE_LIMIT_MAX: ' 7 ' }).RATE_LIMIT_MAX).toBe(7);
    const env = loadEnv({
      RATE_LIMIT_WINDOW_MS: '-1',
      API_KEY_USAGE_FLUSH_MS: 'soon',
      SHUTDOWN_GRACE_MS: '0',
    });
    expect(env.RATE_LIMIT_WINDOW_MS).toBe(60_000);
    expect(env.API_KEY_USAGE_FLUSH_MS).toBe(60_000);
    expect(env.SHUTDOWN_GRACE_MS).toBe(5_000);
  });

  it('parses sizes, proxy lists and retention', () => {
    const env = loadEnv({
      BODY_SIZE_LIMIT: '1kb',
      TRUSTED_PROXIES: ' 127.0.0.1, 10.0.0.0/8 ,',
      AUDIT_RETENTION_DAYS: '0',
    });
    expect(env.BODY_SIZE_LIMIT).toBe(1024);
    expect(env.TRUSTED_PROXIES).toEqual(['127.0.0.1', '10.0.0.0/8']);
    expect(env.AUDIT_RETENTION_DAYS).toBeNull();
    expect(loadEnv({}).BODY_SIZE_LIMIT).toBe(25 * 1024 * 1024);
    expect(loadEnv({}).AUDIT_RETENTION_DAYS).toBe(90);
    expect(loadEnv({ AUDIT_RETENTION_DAYS: 'forever' }).AUDIT_RETENTION_DAYS).toBe(90);
  });
});
