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
}

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
  };
}
