/**
 * The functions' composition root: the dependencies every handler uses, built once per process (once per cold
 * start on Lambda). The embedded host installs the instances it shares with the functions (stores, queue, the
 * in-process host gateway); the aws builder lands with the AWS adapters.
 */
import { CachingApiKeyStore } from '../shared/adapters/caching/caching-api-key-store.js';
import { UsageTracker } from '../shared/auth/usage-tracker.js';
import type { Env } from '../shared/config/env.js';
import type { Metrics } from '../shared/observability/metrics.js';
import { FixedWindowRateLimiter } from '../shared/security/rate-limiter.js';
import type { CoreDeps } from '../shared/use-cases/core-deps.js';

export interface Deps extends CoreDeps {
  env: Env;
  version: string;
  metrics: Metrics;
  usage: UsageTracker;
  rateLimiter: FixedWindowRateLimiter;
}

let installed: Deps | undefined;

/** Adds the HTTP-only services (usage stats, rate limiter) to the core dependencies. */
export function createFunctionDeps(core: CoreDeps & { env: Env; version: string; metrics: Metrics }): Deps {
  // Every request looks its key up by hash: serve that from a short-lived cache that our own writes evict.
  const apiKeys = new CachingApiKeyStore(core.main.apiKeys, core.env.API_KEY_CACHE_TTL_MS);
  const main = { ...core.main, apiKeys };
  return {
    ...core,
    main,
    usage: new UsageTracker(apiKeys, core.logger, core.env.API_KEY_USAGE_FLUSH_MS),
    rateLimiter: new FixedWindowRateLimiter(core.env.RATE_LIMIT_MAX, core.env.RATE_LIMIT_WINDOW_MS),
  };
}

/** Makes `deps` the instance every handler of this process uses. */
export function installDeps(deps: Deps): void {
  installed = deps;
}

export function getDeps(): Deps {
  if (!installed) {
    throw new Error('Function dependencies are not installed: start the gateway through host/main.ts');
  }
  return installed;
}
