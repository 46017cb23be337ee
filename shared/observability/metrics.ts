/**
 * Prometheus metrics of one process: default process series (memory, CPU, event loop) plus the gateway's own.
 * Created once by a composition root and shared by the HTTP stack and the host.
 */
import { Counter, collectDefaultMetrics, Gauge, Registry } from 'prom-client';
import { HttpRequestMetrics } from './http-request-metrics.js';

export interface Metrics {
  readonly registry: Registry;
  /** Requests by method, route and status, and their latency (the HTTP stack records every answer). */
  readonly http: HttpRequestMetrics;
  readonly activeEngines: Gauge;
  readonly commandsProcessed: Counter<'type' | 'outcome'>;
}

export function createMetrics(): Metrics {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry, prefix: 'waygate_' });
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
  };
}
