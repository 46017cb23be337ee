/** Env of the messaging engine: which one runs, the WhatsApp server it talks to, and its time limits. */
import { z } from 'zod';
import { choice, limit, logLevel, optionalMatching } from './fields.js';

export const EngineEnv = z.object({
  /**
   * The engine kinds with an engine to run (webjs has none yet). `test` and `test-core` are the in-process test
   * engine, with every port it implements and with the core ones alone (shared/domain/engine-capabilities.ts).
   */
  ENGINE: choice(['baileys', 'test', 'test-core'], 'baileys'),
  WA_WEBSOCKET_URL: optionalMatching(/^wss?:\/\/\S+$/, 'must be a ws:// or wss:// URL'),
  WA_SERVER_ROOT_KEY: optionalMatching(/^[A-Za-z0-9+/]{43}=$/, 'must be the base64 of a 32-byte public key'),
  BAILEYS_LOG_LEVEL: logLevel('silent'),
  BAILEYS_MESSAGE_STORE_LIMIT: limit(5_000),
  BAILEYS_CONNECT_TIMEOUT_MS: limit(20_000),
  ENGINE_TEARDOWN_TIMEOUT_MS: limit(10_000),
  SEND_WAIT_MS: limit(5_000),
  /** Message batches (send-bulk) under way at once, across sessions; another is refused with 429 BATCH_LIMIT. */
  BULK_MAX_CONCURRENT_BATCHES: limit(50),
});
