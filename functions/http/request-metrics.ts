/**
 * Per-request metrics with the labelled children cached: resolving prom-client labels hashes them on every call,
 * which shows up on the hot path; the set of (method, route, status) combinations is small and fixed by the routes.
 */
import type { Metrics } from '../../shared/observability/metrics.js';

type Child = { inc(): void };
type Timer = { observe(value: number): void };

const counters = new WeakMap<Metrics, Map<string, Child>>();
const histograms = new WeakMap<Metrics, Map<string, Timer>>();

function childrenOf<V>(registry: WeakMap<Metrics, Map<string, V>>, metrics: Metrics): Map<string, V> {
  let children = registry.get(metrics);
  if (!children) {
    children = new Map();
    registry.set(metrics, children);
  }
  return children;
}

export function recordRequest(
  metrics: Metrics,
  method: string,
  route: string,
  status: number,
  seconds: number,
): void {
  const key = `${method} ${route}`;
  const counterKey = `${key} ${status}`;
  const counterChildren = childrenOf(counters, metrics);
  let counter = counterChildren.get(counterKey);
  if (!counter) {
    counter = metrics.httpRequests.labels({ method, route, status: String(status) });
    counterChildren.set(counterKey, counter);
  }
  const histogramChildren = childrenOf(histograms, metrics);
  let timer = histogramChildren.get(key);
  if (!timer) {
    timer = metrics.httpDuration.labels({ method, route });
    histogramChildren.set(key, timer);
  }
  counter.inc();
  timer.observe(seconds);
}
