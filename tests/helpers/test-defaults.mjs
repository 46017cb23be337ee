/**
 * What every test gateway runs with unless a test overrides it (re-exported by test-gateway.ts). Plain JS so that
 * the api-aws global setup, which loads no TypeScript, prewarms serverless offline with these same values
 * (functions-pool.mjs); declarations in test-defaults.d.mts.
 */
export const TEST_DEFAULTS = Object.freeze({
  LOG_LEVEL: 'silent',
  ENGINE: 'test',
  RATE_LIMIT_MAX: '1000000',
  ENGINE_TEARDOWN_TIMEOUT_MS: '300',
  API_KEY_USAGE_FLUSH_MS: '50',
  // A test gateway closes without the shutdown's webhook drain (what still waits is recorded at once, as before it
  // existed); the drain is tested where it is the subject (webhook-delivery.test.ts, the SIGTERM e2e test).
  WEBHOOK_SHUTDOWN_DRAIN_MS: '0',
  // The jest project `api-thread` runs its files with the API in a thread of its own (its setup file sets this).
  API_THREAD: process.env.WAYGATE_API_THREAD === '1' ? 'true' : 'false',
});
