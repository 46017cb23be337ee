/** What every function handler depends on: the core dependencies plus the HTTP-only services. */

import { CachingApiKeyStore } from '#shared/adapters/caching/caching-api-key-store.js';
import { GuardedHttpClient } from '#shared/adapters/http/guarded-http-client.js';
import { GuardedMediaFetcher } from '#shared/adapters/http/guarded-media-fetcher.js';
import { UsageTracker } from '#shared/auth/usage-tracker.js';
import type { Env } from '#shared/config/env.js';
import { sendPacingPolicy } from '#shared/domain/send-pacing.js';
import type { Metrics } from '#shared/observability/metrics.js';
import type { AuthStateStore } from '#shared/ports/auth-state-store.port.js';
import type { HttpClient } from '#shared/ports/http-client.port.js';
import { FixedWindowRateLimiter } from '#shared/security/rate-limiter.js';
import type { CoreDeps } from '#shared/use-cases/core-deps.js';
import { DrainSignal } from '#shared/use-cases/health/drain-signal.js';
import { LiveSettings } from '#shared/use-cases/infra/live-settings.js';
import { type DraftFiles, MEDIA_FETCH_TIMEOUT_MS } from '#shared/use-cases/messages/draft-media.js';
import { SendPacer } from '#shared/use-cases/messages/send-pacing.js';

export interface Deps extends CoreDeps {
  env: Env;
  version: string;
  metrics: Metrics;
  usage: UsageTracker;
  rateLimiter: FixedWindowRateLimiter;
  /** Outbound HTTP to user-supplied URLs (the webhook test delivery), behind the SSRF guard. */
  http: HttpClient;
  /** Send pacing of the send routes; null unless SEND_PACING_ENABLED (then sends pay nothing for it). */
  pacing: SendPacer | null;
  /** Where media sends' files are fetched (through the SSRF guard) and archived. */
  files: DraftFiles;
  /** The run-time settings in force (GET/PUT /api/infra/config), applied to the rate limiter and the logger. */
  settings: LiveSettings;
  /** Set when the process begins its shutdown: readiness turns 503 and new writes are refused. */
  drain: DrainSignal;
  /**
   * The linked devices' auth state, for the data export and import that move it on request (includeCredentials);
   * null where the API cannot reach it (aws mode with AUTH_STATE_STORE=file: the hosts' disks).
   */
  authState: (() => AuthStateStore) | null;
  /** Runs after every request (Lambda: writes what the request buffered before the instance may freeze). */
  flushAfterRequest?: () => Promise<void>;
}

/**
 * Adds the HTTP-only services (usage stats, rate limiter, the guarded HTTP client) to the core dependencies, and the
 * engine kind the env configures (the hosts run the same `ENGINE`).
 */

export function createFunctionDeps(
  core: Omit<CoreDeps, 'engine' | 'sessionLimit'> & {
    env: Env;
    version: string;
    metrics: Metrics;
    authState?: (() => AuthStateStore) | null;
  },
): Deps {
  // Every request looks its key up by hash: serve that from a short-lived cache that our own writes evict.
  const apiKeys = new CachingApiKeyStore(core.main.apiKeys, core.env.API_KEY_CACHE_TTL_MS);
  const main = { ...core.main, apiKeys };
  const policy = sendPacingPolicy(core.env);
  const rateLimiter = new FixedWindowRateLimiter(core.env.RATE_LIMIT_MAX, core.env.RATE_LIMIT_WINDOW_MS);
  const settings = new LiveSettings({
    env: core.env,
    store: core.data.settings,
    clock: core.clock,
    logger: core.logger,
    appliers: [
      (s) => rateLimiter.configure(s.RATE_LIMIT_MAX, s.RATE_LIMIT_WINDOW_MS),
      (s) => {
        if (core.logger.level !== undefined) core.logger.level = s.LOG_LEVEL;
      },
    ],
  });
  return {
    ...core,
    authState: core.authState ?? null,
    settings,
    engine: core.env.ENGINE,
    drain: new DrainSignal(),
    sessionLimit: core.env.MULTI_NODE ? 0 : core.env.MAX_CONCURRENT_SESSIONS,
    main,
    usage: new UsageTracker(apiKeys, core.logger, core.env.API_KEY_USAGE_FLUSH_MS),
    rateLimiter,
    // Its pooled sockets are unref'd while idle, so it holds no process open and needs no close.
    http: new GuardedHttpClient({ allowedHosts: core.env.SSRF_ALLOWED_HOSTS }),
    files: {
      media: core.media,
      fetcher: new GuardedMediaFetcher({ allowedHosts: core.env.SSRF_ALLOWED_HOSTS }),
      fetchTimeoutMs: MEDIA_FETCH_TIMEOUT_MS,
    },
    pacing: policy
      ? new SendPacer(
          {
            store: core.data.sendPacing,
            messages: core.data.messages,
            audit: core.audit,
            clock: core.clock,
            metrics: core.metrics,
          },
          policy,
        )
      : null,
  };
}
