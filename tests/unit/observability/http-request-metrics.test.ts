import { Counter, Histogram, Registry } from 'prom-client';
import { HTTP_DURATION_BUCKETS, HttpRequestMetrics } from '#shared/observability/http-request-metrics.js';

type Observation = [method: string, route: string, status: number, seconds: number];

const observations: Observation[] = [
  ['GET', '/api/sessions/{id}', 200, 0.0004],
  ['GET', '/api/sessions/{id}', 200, 0.001], // on a bound: counted in that bucket, as prom-client does
  ['GET', '/api/sessions/{id}', 404, 0.03],
  ['POST', '/api/sessions', 201, 0.2],
  ['GET', '/api/sessions', 200, 7], // above every bound: only +Inf
  ['GET', 'unmatched', 404, 0.00001],
];

/** The same series through prom-client's own classes, as the gateway exposed them before. */
async function promClientText(): Promise<string> {
  const registry = new Registry();
  const requests = new Counter({
    name: 'waygate_http_requests_total',
    help: 'HTTP requests served, by method, route template and status code',
    labelNames: ['method', 'route', 'status'],
    registers: [registry],
  });
  const duration = new Histogram({
    name: 'waygate_http_request_duration_seconds',
    help: 'HTTP request latency by method and route template',
    labelNames: ['method', 'route'],
    buckets: [...HTTP_DURATION_BUCKETS],
    registers: [registry],
  });
  for (const [method, route, status, seconds] of observations) {
    requests.inc({ method, route, status: String(status) });
    duration.observe({ method, route }, seconds);
  }
  return registry.metrics();
}

/** Metric families of an exposition, each with its lines sorted (series order within a family is free). */
function families(text: string): string[] {
  return text
    .trim()
    .split('\n\n')
    .map((family) => family.split('\n').sort().join('\n'));
}

describe('HttpRequestMetrics', () => {
  it('exposes the same Prometheus text as prom-client counters and histograms given the same requests', async () => {
    const registry = new Registry();
    const metrics = new HttpRequestMetrics();
    metrics.register(registry);
    for (const [method, route, status, seconds] of observations)
      metrics.record(method, route, status, seconds);

    expect(families(await registry.metrics())).toEqual(families(await promClientText()));
  });

  it('reads back through the registry as JSON with cumulative buckets, sum and count', async () => {
    const registry = new Registry();
    const metrics = new HttpRequestMetrics();
    metrics.register(registry);
    metrics.record('GET', '/api/health', 200, 0.002);
    metrics.record('GET', '/api/health', 200, 0.02);

    const [, duration] = await registry.getMetricsAsJSON();
    // prom-client's JSON values carry the series name of histogram lines, which its types leave out.
    const values = (duration?.values ?? []) as {
      value: number;
      labels: { le?: number | string };
      metricName?: string;
    }[];
    const value = (metricName: string, le?: number | string) =>
      values.find((v) => v.metricName === metricName && v.labels.le === le)?.value;
    expect(duration?.type).toBe('histogram');
    expect(value('waygate_http_request_duration_seconds_bucket', 0.001)).toBe(0);
    expect(value('waygate_http_request_duration_seconds_bucket', 0.0025)).toBe(1);
    expect(value('waygate_http_request_duration_seconds_bucket', 0.025)).toBe(2);
    expect(value('waygate_http_request_duration_seconds_bucket', '+Inf')).toBe(2);
    expect(value('waygate_http_request_duration_seconds_count')).toBe(2);
    expect(value('waygate_http_request_duration_seconds_sum')).toBeCloseTo(0.022, 10);
  });

  it('starts again from zero when the registry is reset', async () => {
    const registry = new Registry();
    const metrics = new HttpRequestMetrics();
    metrics.register(registry);
    metrics.record('GET', '/api/health', 200, 0.002);
    registry.resetMetrics();

    expect(await registry.metrics()).not.toMatch(/^waygate_http_requests_total\{/m);
  });
});
