/**
 * Prometheus metrics of one process: default process series (memory, CPU, event loop) plus the gateway's own.
 * Created once by a composition root and shared by the HTTP stack and the host.
 */
import { Counter, collectDefaultMetrics, Gauge, Histogram, Registry } from 'prom-client';

export interface Metrics {
  readonly registry: Registry;
  readonly httpRequests: Counter<'method' | 'route' | 'status'>;
  readonly httpDuration: Histogram<'method' | 'route'>;
  readonly activeEngines: Gauge;
  readonly commandsProcessed: Counter<'type' | 'outcome'>;
  readonly auditWriteFailures: Counter;
  readonly auditEntriesDropped: Counter<'action'>;
  readonly auditRetryBuffered: Gauge;
}

/** The audit recorder's share of the metrics. */
export type AuditMetrics = Pick<Metrics, 'auditWriteFailures' | 'auditEntriesDropped' | 'auditRetryBuffered'>;

export function createMetrics(): Metrics {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry, prefix: 'waygate_' });
  return {
    registry,
    httpRequests: new Counter({
      name: 'waygate_http_requests_total',
      help: 'HTTP requests served, by method, route template and status code',
      labelNames: ['method', 'route', 'status'],
      registers: [registry],
    }),
    httpDuration: new Histogram({
      name: 'waygate_http_request_duration_seconds',
      help: 'HTTP request latency by method and route template',
      labelNames: ['method', 'route'],
      buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5],
      registers: [registry],
    }),
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
  };
}
