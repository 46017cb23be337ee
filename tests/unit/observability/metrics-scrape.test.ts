/**
 * A scrape with API_THREAD: the API thread's series and the host thread's, added up into one exposition; the
 * process series come once (from the host's thread), and a gauge not yet measured (NaN) crosses the port.
 */
import { describe, expect, it } from '@jest/globals';
import { Gauge } from 'prom-client';
import { MetricJson } from '#shared/adapters/api-thread/api-thread-protocol.js';
import { createMetrics } from '#shared/observability/metrics.js';

/** What crosses the port: the host registry's JSON, structured-cloned and parsed as the API thread parses it. */
const overThePort = async (metrics: ReturnType<typeof createMetrics>) =>
  MetricJson.array().parse(structuredClone(await metrics.registry.getMetricsAsJSON()));

describe('metrics scrape across threads', () => {
  it("adds the host thread's series to the API thread's, with one set of process series", async () => {
    const host = createMetrics({ processSeries: true });
    host.activeEngines.set(2);
    host.commandsProcessed.inc({ type: 'send', outcome: 'ok' }, 3);
    const api = createMetrics({ peers: async () => [await overThePort(host)] });
    api.http.record('GET', '/api/sessions', 200, 0.004);

    const { contentType, text } = await api.scrape();
    expect(contentType).toContain('text/plain');
    expect(text).toMatch(/^waygate_active_engines 2$/m);
    expect(text).toMatch(/^waygate_commands_processed_total\{type="send",outcome="ok"\} 3$/m);
    expect(text).toMatch(
      /^waygate_http_requests_total\{method="GET",route="\/api\/sessions",status="200"\} 1$/m,
    );
    expect(text.match(/^# TYPE waygate_process_cpu_user_seconds_total counter$/gm)).toHaveLength(1);
    host.close();
  });

  it('carries a gauge that is NaN, as one not yet measured is', async () => {
    const host = createMetrics();
    new Gauge({ name: 'waygate_test_unmeasured', help: 'never set', registers: [host.registry] }).set(
      Number.NaN,
    );
    const api = createMetrics({ peers: async () => [await overThePort(host)] });
    // prom-client's own spelling of NaN, as in any scrape of one registry.
    expect((await api.scrape()).text).toMatch(/^waygate_test_unmeasured Nan$/m);
  });

  it('without peers, is the registry as it stands', async () => {
    const metrics = createMetrics();
    metrics.activeEngines.set(1);
    const types = (text: string) => text.split('\n').filter((line) => line.startsWith('# TYPE'));
    const { text } = await metrics.scrape();
    expect(text).toMatch(/^waygate_active_engines 1$/m);
    expect(types(text)).toEqual(types(await metrics.registry.metrics()));
  });
});
