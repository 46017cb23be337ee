import { defineRoute, RawResponse } from '#functions/http/route.js';
import { NotFoundError, RateLimitedError, UnauthorizedError } from '#shared/errors/app-error.js';
import { constantTimeEquals } from '#shared/security/secrets.js';

/**
 * GET /api/metrics: Prometheus text. Guarded by its own bearer token (METRICS_TOKEN), not an API key; absent when
 * no token is configured (404), so a default install exposes nothing. Scrapes skip the REST rate limit; failed
 * token attempts count against the caller's window, so the token cannot be guessed at full speed.
 */
export const metricsRoute = defineRoute({
  method: 'GET',
  path: '/api/metrics',
  summary: 'Prometheus metrics (Authorization: Bearer <METRICS_TOKEN>)',
  tag: 'Health',
  auth: 'public',
  rateLimited: false,
  binaryResponse: {
    mediaType: 'text/plain',
    description: 'The Prometheus text exposition format (`text/plain; version=0.0.4`)',
    headers: {},
  },
  success: 200,
  errors: [401, 404],
  run: async ({ deps, bearerToken, caller }) => {
    const token = deps.env.METRICS_TOKEN;
    if (!token) throw new NotFoundError('Route GET /api/metrics not found', { code: 'ROUTE_NOT_FOUND' });
    if (!constantTimeEquals(bearerToken ?? '', token)) {
      const subject = caller.ip ?? 'unknown';
      const decision = deps.rateLimiter.hit(subject, deps.clock.now().getTime());
      if (!decision.allowed) {
        void deps.audit.record(caller, {
          action: 'rate_limit_exceeded',
          severity: 'warn',
          statusCode: 429,
          metadata: { subject, kind: 'metrics' },
        });
        throw new RateLimitedError(decision.retryAfterSeconds);
      }
      throw new UnauthorizedError('Invalid metrics token');
    }
    const { contentType, text } = await deps.metrics.scrape();
    return new RawResponse(200, text, { 'content-type': contentType });
  },
});
