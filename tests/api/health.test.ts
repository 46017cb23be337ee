/**
 * Health (`{status, timestamp, version}`), readiness (both stores up; 503 `shutdown: draining` once a shutdown
 * began, when writes are refused with 503 SHUTTING_DOWN and reads still answered) and Prometheus metrics behind
 * METRICS_TOKEN (404 without one, 401 for a wrong or missing bearer), the audit write series among them.
 */
import fs from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { embeddedOnly, startTestGateway, type TestGateway, waitFor } from '#tests/helpers/test-gateway.js';

const packageJson = JSON.parse(fs.readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as {
  version: string;
};
const METRICS_TOKEN = 'scrape-me-please-0123456789';

describe('health and readiness', () => {
  let gw: TestGateway;
  beforeAll(async () => {
    gw = await startTestGateway();
  });
  afterAll(async () => {
    await gw.close();
  });

  it('GET /api/health answers status, timestamp and the package version, without a key', async () => {
    const before = Date.now();
    const res = await gw.request('GET', '/api/health', { key: null });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^application\/json/);
    expect(res.body).toEqual({ status: 'ok', timestamp: expect.any(String), version: packageJson.version });
    expect(new Date(res.body.timestamp).toISOString()).toBe(res.body.timestamp);
    expect(Date.parse(res.body.timestamp)).toBeGreaterThanOrEqual(before - 1000);
    expect(res.headers.get('x-request-id')).toBeTruthy();
  });

  it('GET /api/health/ready reports both stores up', async () => {
    const res = await gw.request('GET', '/api/health/ready', { key: null });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      status: 'ok',
      details: { mainDatabase: { status: 'up' }, dataDatabase: { status: 'up' } },
    });
  });

  it('a key is not needed, and an invalid one does not matter', async () => {
    expect((await gw.request('GET', '/api/health', { key: 'garbage' })).status).toBe(200);
    expect((await gw.request('GET', '/api/health/ready', { key: 'garbage' })).status).toBe(200);
  });

  it('GET /api/metrics is absent (404 ROUTE_NOT_FOUND) when METRICS_TOKEN is unset', async () => {
    const variants: Record<string, string>[] = [{}, { authorization: 'Bearer anything' }];
    for (const headers of variants) {
      const res = await gw.request('GET', '/api/metrics', { key: null, headers });
      expect([res.status, res.body.code]).toEqual([404, 'ROUTE_NOT_FOUND']);
    }
    // An API key does not unlock it either.
    expect((await gw.request('GET', '/api/metrics')).status).toBe(404);
  });
});

describe('metrics with METRICS_TOKEN', () => {
  let gw: TestGateway;
  beforeAll(async () => {
    gw = await startTestGateway({ METRICS_TOKEN });
  });
  afterAll(async () => {
    await gw.close();
  });

  it.each([
    ['no Authorization header', {}],
    ['a wrong token', { authorization: 'Bearer not-the-token' }],
    ['a prefix of the token', { authorization: `Bearer ${METRICS_TOKEN.slice(0, -1)}` }],
    ['the token without the scheme', { authorization: METRICS_TOKEN }],
    ['the token as an API key', { 'x-api-key': METRICS_TOKEN }],
  ])('401 for %s', async (_label, headers: Record<string, string>) => {
    const res = await gw.request('GET', '/api/metrics', { key: null, headers });
    expect([res.status, res.body.code]).toEqual([401, 'UNAUTHORIZED']);
    expect(res.text).not.toContain(METRICS_TOKEN);
  });

  it('an admin API key is not the metrics token', async () => {
    const res = await gw.request('GET', '/api/metrics', {
      headers: { authorization: `Bearer ${gw.adminKey}` },
    });
    expect(res.status).toBe(401);
  });

  embeddedOnly(
    it,
    'metrics are per process: in aws mode the health function cannot count what the sessions function served',
  )('200 Prometheus text with process memory, request count and latency series', async () => {
    await gw.request('GET', '/api/sessions');
    const res = await gw.request('GET', '/api/metrics', {
      key: null,
      headers: { authorization: `Bearer ${METRICS_TOKEN}` },
    });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/plain/);
    expect(res.text).toMatch(/^waygate_process_resident_memory_bytes \d+/m);
    expect(res.text).toContain('# TYPE waygate_http_requests_total counter');
    expect(res.text).toContain('# TYPE waygate_http_request_duration_seconds histogram');
    expect(res.text).toMatch(
      /^waygate_http_requests_total\{method="GET",route="\/api\/sessions",status="200"\} [1-9]\d*$/m,
    );
    expect(res.text).toMatch(
      /^waygate_http_request_duration_seconds_count\{method="GET",route="\/api\/sessions"\} \d+/m,
    );
    // Routes are labelled by template, never by the concrete path.
    const session = await gw.createSession();
    await gw.request('GET', `/api/sessions/${session.id}`);
    const after = await gw.request('GET', '/api/metrics', {
      headers: { authorization: `Bearer ${METRICS_TOKEN}` },
    });
    expect(after.text).toContain('route="/api/sessions/{id}"');
    expect(after.text).not.toContain(session.id);
  });

  it('exports the audit write series: failed writes, dropped entries by action, the retry buffer', async () => {
    const res = await gw.request('GET', '/api/metrics', {
      key: null,
      headers: { authorization: `Bearer ${METRICS_TOKEN}` },
    });
    expect(res.status).toBe(200);
    expect(res.text).toMatch(/^waygate_audit_write_failures_total 0$/m);
    expect(res.text).toContain('# TYPE waygate_audit_entries_dropped_total counter');
    expect(res.text).toMatch(/^waygate_audit_retry_buffered 0$/m);
  });
});

embeddedOnly(describe, 'the functions run on Lambda in aws mode, which is never drained')(
  'a draining gateway',
  () => {
    let gw: TestGateway;
    beforeAll(async () => {
      gw = await startTestGateway();
    });
    afterAll(async () => {
      await gw.close();
    });

    it('answers readiness 503 with shutdown draining, refuses writes with 503 SHUTTING_DOWN and still reads', async () => {
      const session = await gw.createSession();
      gw.gateway.drain();
      // With API_THREAD the thread hears of it by message: it turns within a moment.
      const ready = await waitFor(async () => {
        const res = await gw.request('GET', '/api/health/ready', { key: null });
        return res.status === 503 ? res : null;
      });
      expect(ready.body).toEqual({
        status: 'error',
        details: {
          mainDatabase: { status: 'up' },
          dataDatabase: { status: 'up' },
          shutdown: { status: 'draining' },
        },
      });
      const write = await gw.request('POST', '/api/sessions', { body: { name: 'after-drain' } });
      expect([write.status, write.body.code, write.body.retryable]).toEqual([503, 'SHUTTING_DOWN', true]);
      expect(write.headers.get('retry-after')).toBe('5');
      const started = await gw.request('POST', `/api/sessions/${session.id}/start`);
      expect([started.status, started.body.code]).toEqual([503, 'SHUTTING_DOWN']);
      const read = await gw.request('GET', `/api/sessions/${session.id}`);
      expect([read.status, read.body.id]).toEqual([200, session.id]);
      expect((await gw.request('GET', '/api/health', { key: null })).status).toBe(200);
    });
  },
);
