/** Env of the HTTP API and its process: where it listens, what it accepts, how it logs and stops. */
import { z } from 'zod';
import { byteSize, commaList, flag, limit, logLevel, optionalString, port, text } from './fields.js';

export const ServerEnv = z.object({
  LOG_LEVEL: logLevel('info'),
  PORT: port(2785),
  BIND_HOST: text('0.0.0.0'),
  TRUSTED_PROXIES: commaList,
  BODY_SIZE_LIMIT: byteSize('25mb'),
  /**
   * The data import's body cap where it is streamed (embedded mode): the document is spooled to DATA_DIR, not held,
   * so it may be far larger than BODY_SIZE_LIMIT. A Lambda import stays under BODY_SIZE_LIMIT (API Gateway's cap).
   */
  IMPORT_MAX_BYTES: byteSize('4gb'),
  METRICS_TOKEN: optionalString,
  RATE_LIMIT_MAX: limit(100),
  RATE_LIMIT_WINDOW_MS: limit(60_000),
  SHUTDOWN_GRACE_MS: limit(5_000),
  /**
   * Embedded mode: the API (HTTP, the functions, their store writes) runs in a worker thread of its own beside the
   * host's (engines, queue consumer, deliveries), so the two use two cores. Off by default.
   */
  API_THREAD: flag(false),
  /** The release name where no package.json is at hand (Lambda bundles); the host reads package.json. */
  SERVICE_VERSION: optionalString,
});
