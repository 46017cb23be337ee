/**
 * Prometheus metrics of one process: default process series (memory, CPU, event loop) plus the gateway's own.
 * Created once by a composition root and shared by the HTTP stack and the host.
 *
 * prom-client's modules are imported one by one rather than through its index, which loads the process series
 * (with @opentelemetry/api) at once: those are imported and started PROCESS_SERIES_DELAY_MS after the metrics are
 * created, out of the way of a start, and a read of the registry before then waits for them.
 */
import type { Registry } from 'prom-client';
import AggregatorRegistry from 'prom-client/lib/cluster.js';
import Counter from 'prom-client/lib/counter.js';
import Gauge from 'prom-client/lib/gauge.js';
import PromRegistry from 'prom-client/lib/registry.js';
import { HttpRequestMetrics } from './http-request-metrics.js';

/** When the process series start after the metrics are created (about 25 ms of CPU a start need not wait for). */
const PROCESS_SERIES_DELAY_MS = 1_000;

export interface Metrics {
  readonly registry: Registry;
  /** Requests by method, route and status, and their latency (the HTTP stack records every answer). */
  readonly http: HttpRequestMetrics;
  readonly activeEngines: Gauge;
  readonly commandsProcessed: Counter<'type' | 'outcome'>;
  readonly auditWriteFailures: Counter;
  readonly auditEntriesDropped: Counter<'action'>;
  readonly auditRetryBuffered: Gauge;
  /** Sends refused by send pacing, by rule (daily_cap, cold_daily_cap, breaker_open). */
  readonly sendPacingRefusals: Counter<'rule'>;
  /** The Prometheus text of a scrape: this registry's series, with those of `peers` added up when there are any. */
  scrape(): Promise<{ contentType: string; text: string }>;
  /** The owner is done with these metrics: process series not started yet never start (the process lives on). */
  close(): void;
}

export interface MetricsOptions {
  /**
   * Process series (memory, CPU, event loop), for the process's composition root to ask for; default false, so a
   * registry built for one unit (a test, a tool) starts no timer. The API thread leaves them to the host's thread:
   * the process is one, and a scrape adds the threads' series up.
   */
  processSeries?: boolean;
  /**
   * The series of the process's other threads (the host's, for the API thread): one `getMetricsAsJSON()` answer per
   * thread.
   */
  peers?: () => Promise<readonly (readonly object[])[]>;
}

/** The audit recorder's share of the metrics. */
export type AuditMetrics = Pick<Metrics, 'auditWriteFailures' | 'auditEntriesDropped' | 'auditRetryBuffered'>;

export function createMetrics(options: MetricsOptions = {}): Metrics {
  const registry = new PromRegistry();
  const stopProcessSeries = options.processSeries ? startProcessSeries(registry) : () => undefined;
  const { peers } = options;
  const http = new HttpRequestMetrics();
  http.register(registry);
  return {
    registry,
    http,
    activeEngines: new Gauge({
      name: 'waygate_active_engines',
      help: 'Session engines running on this node',
      registers: [registry],
    }),
    commandsProcessed: new Counter({
      name: 'waygate_commands_processed_total',
      help: 'Queue commands handled by the host, by type and outcome',
      labelNames: ['type', 'outcome'],
      registers: [registry],
    }),
    auditWriteFailures: new Counter({
      name: 'waygate_audit_write_failures_total',
      help: 'Failed attempts to write a batch of audit entries (each is retried)',
      registers: [registry],
    }),
    auditEntriesDropped: new Counter({
      name: 'waygate_audit_entries_dropped_total',
      help: 'Audit entries discarded unwritten (retry buffer full, or still failing at shutdown), by action',
      labelNames: ['action'],
      registers: [registry],
    }),
    auditRetryBuffered: new Gauge({
      name: 'waygate_audit_retry_buffered',
      help: 'Audit entries waiting in the retry buffer for the store to accept them',
      registers: [registry],
    }),
    sendPacingRefusals: new Counter({
      name: 'waygate_send_pacing_refusals_total',
      help: 'Sends refused by send pacing (429 SEND_PACING_LIMITED), by rule',
      labelNames: ['rule'],
      registers: [registry],
    }),
    scrape: async () => {
      if (!peers) return { contentType: registry.contentType, text: await registry.metrics() };
      // Counters and gauges of the same name and labels add up (prom-client's aggregation for cluster workers).
      const merged = AggregatorRegistry.aggregate([await registry.getMetricsAsJSON(), ...(await peers())]);
      return { contentType: merged.contentType, text: await merged.metrics() };
    },
    close: stopProcessSeries,
  };
}

/**
 * Starts prom-client's process series in `registry` after PROCESS_SERIES_DELAY_MS, or at the registry's first read if
 * that comes sooner: its two readers (a scrape's text, the JSON another thread asks for) wait for them.
 */
function startProcessSeries(registry: Registry): () => void {
  let started: Promise<void> | null = null;
  const start = () =>
    (started ??= import('prom-client/lib/defaultMetrics.js').then(({ default: collectDefaultMetrics }) => {
      collectDefaultMetrics({ register: registry, prefix: 'waygate_' });
    }));
  // A failure shows at the next read, which waits for the same promise.
  const timer = setTimeout(() => start().catch(() => undefined), PROCESS_SERIES_DELAY_MS);
  timer.unref();
  const text = registry.metrics.bind(registry);
  const json = registry.getMetricsAsJSON.bind(registry);
  registry.metrics = async () => {
    await start();
    return text();
  };
  registry.getMetricsAsJSON = async () => {
    await start();
    return json();
  };
  return () => clearTimeout(timer);
}
