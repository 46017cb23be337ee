/**
 * The REST rate limit (RATE_LIMIT_MAX per RATE_LIMIT_WINDOW_MS per client IP): 429 RATE_LIMITED with Retry-After;
 * health and metrics are exempt; rate_limit_exceeded is audited once per subject and kind per minute. Client
 * addresses come from X-Forwarded-For (TRUSTED_PROXIES=127.0.0.1) so each test has its own subject.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { embeddedOnly, startTestGateway, type TestGateway } from '#tests/helpers/test-gateway.js';

/** The limiter counts in memory: in aws mode each Lambda instance keeps its own windows. */
const perProcess = (what: string) =>
  `${what}; in aws mode every Lambda instance (one per resource group here) counts its own windows`;

const METRICS_TOKEN = 'metrics-secret-token';

describe('REST rate limit', () => {
  let gw: TestGateway;
  const from = (ip: string, method = 'GET', path = '/api/sessions', key?: string | null) =>
    gw.request(method, path, {
      headers: ip ? { 'x-forwarded-for': ip } : {},
      ...(key === undefined ? {} : { key }),
    });
  const statuses = async (count: number, ip: string, path = '/api/sessions', key?: string | null) => {
    const seen: number[] = [];
    for (let i = 0; i < count; i++) seen.push((await from(ip, 'GET', path, key)).status);
    return seen;
  };

  beforeAll(async () => {
    gw = await startTestGateway({
      RATE_LIMIT_MAX: '5',
      RATE_LIMIT_WINDOW_MS: '60000',
      TRUSTED_PROXIES: '127.0.0.1',
      METRICS_TOKEN,
    });
  });
  afterAll(async () => {
    await gw.close();
  });

  it('answers the 6th request in the window with 429 RATE_LIMITED and Retry-After', async () => {
    expect(await statuses(5, '10.9.0.1')).toEqual([200, 200, 200, 200, 200]);
    const limited = await from('10.9.0.1');
    expect(limited.status).toBe(429);
    expect(limited.body).toMatchObject({
      statusCode: 429,
      error: 'Too Many Requests',
      code: 'RATE_LIMITED',
      retryable: true,
    });
    const retryAfter = Number(limited.headers.get('retry-after'));
    expect(Number.isInteger(retryAfter)).toBe(true);
    expect(retryAfter).toBeGreaterThanOrEqual(1);
    expect(retryAfter).toBeLessThanOrEqual(60);
  });

  embeddedOnly(it, perProcess('its requests go to the sessions and the auth function'))(
    'limits the client on every API route, with or without a valid key',
    async () => {
      expect((await from('10.9.0.1', 'POST', '/api/auth/validate')).status).toBe(429);
      expect((await from('10.9.0.1', 'GET', '/api/auth/api-keys')).status).toBe(429);
      expect((await from('10.9.0.1', 'GET', '/api/sessions', null)).status).toBe(429);
      expect((await from('10.9.0.1', 'POST', '/api/sessions')).status).toBe(429);
    },
  );

  it('counts refused keys too, so guessing keys is throttled', async () => {
    expect(await statuses(6, '10.9.0.4', '/api/sessions', `wg_${'1'.repeat(64)}`)).toEqual([
      401, 401, 401, 401, 401, 429,
    ]);
  });

  it('keeps separate windows per client address', async () => {
    expect(await statuses(3, '10.9.0.2')).toEqual([200, 200, 200]);
  });

  it('does not limit health, readiness or metrics', async () => {
    expect(await statuses(8, '10.9.0.1', '/api/health')).toEqual(Array(8).fill(200));
    expect(await statuses(8, '10.9.0.1', '/api/health/ready')).toEqual(Array(8).fill(200));
    for (let i = 0; i < 8; i++) {
      const res = await gw.request('GET', '/api/metrics', {
        headers: { 'x-forwarded-for': '10.9.0.1', authorization: `Bearer ${METRICS_TOKEN}` },
      });
      expect(res.status).toBe(200);
    }
  });

  it('counts failed metrics-token attempts, so the token cannot be guessed at full speed', async () => {
    const attempts: number[] = [];
    for (let i = 0; i < 6; i++) {
      const res = await gw.request('GET', '/api/metrics', {
        headers: { 'x-forwarded-for': '10.9.0.5', authorization: 'Bearer guessed-token' },
      });
      attempts.push(res.status);
    }
    expect(attempts).toEqual([401, 401, 401, 401, 401, 429]);
  });

  it('audits rate_limit_exceeded once per subject and kind, however many 429s', async () => {
    expect(await statuses(10, '10.9.0.3')).toEqual([...Array(5).fill(200), ...Array(5).fill(429)]);
    expect(await statuses(4, '10.9.0.1')).toEqual(Array(4).fill(429));
    // Shutdown flushes the audit buffer; the new process starts with fresh windows.
    gw = await gw.restart();
    const res = await gw.request('GET', '/api/audit?action=rate_limit_exceeded');
    expect(res.status).toBe(200);
    const bySubject = new Map<string, number>();
    for (const entry of res.body.data) {
      bySubject.set(entry.metadata.subject, (bySubject.get(entry.metadata.subject) ?? 0) + 1);
      const kind = entry.metadata.subject === '10.9.0.5' ? 'metrics' : 'rest';
      expect(entry).toMatchObject({ severity: 'warn', statusCode: 429, metadata: { kind } });
      expect(entry.ipAddress).toBe(entry.metadata.subject);
    }
    expect(Object.fromEntries(bySubject)).toEqual({
      '10.9.0.1': 1,
      '10.9.0.3': 1,
      '10.9.0.4': 1,
      '10.9.0.5': 1,
    });
    expect(res.body.total).toBe(4);
    const first = res.body.data.find(
      (e: { metadata: { subject: string } }) => e.metadata.subject === '10.9.0.3',
    );
    expect(first).toMatchObject({ method: 'GET', path: '/api/sessions' });
  });

  embeddedOnly(
    it,
    perProcess('it counts an audit request and a restart of the process toward the window of /api/sessions'),
  )('limits the socket address when no proxy header is sent', async () => {
    // The audit query above was the first request of this window from 127.0.0.1 (no forwarding header).
    expect(await statuses(4, '')).toEqual([200, 200, 200, 200]);
    const res = await gw.request('GET', '/api/sessions');
    expect([res.status, res.body.code]).toEqual([429, 'RATE_LIMITED']);
  });
});
