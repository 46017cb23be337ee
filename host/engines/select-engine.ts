/** Chooses the engine factory named by ENGINE and builds what it needs (the Baileys auth-state store). */
import { pino } from 'pino';
import { CachingAuthStateStore } from '../../shared/adapters/caching/caching-auth-state-store.js';
import { SqliteAuthStateStore } from '../../shared/adapters/sqlite/sqlite-auth-state-store.js';
import type { Env } from '../../shared/config/env.js';
import { BaileysEngineFactory } from './baileys/baileys-engine-factory.js';
import type { EngineFactory } from './engine.port.js';
import { TestEngineFactory } from './test/test-engine.js';
import { TestNetwork } from './test/test-network.js';

export interface SelectedEngine {
  factory: EngineFactory;
  /** The test engine's network (ENGINE=test), for tests to act as the phone. */
  network: TestNetwork | null;
  close(): Promise<void>;
}

export function selectEngine(env: Env, testNetwork?: TestNetwork): SelectedEngine {
  switch (env.ENGINE) {
    case 'test': {
      const network = testNetwork ?? new TestNetwork();
      return { factory: new TestEngineFactory(network), network, close: async () => {} };
    }
    case 'baileys': {
      const authState = new CachingAuthStateStore(new SqliteAuthStateStore(env.AUTH_DIR));
      const factory = new BaileysEngineFactory({
        authState,
        webSocketUrl: env.WA_WEBSOCKET_URL,
        serverRootKey: env.WA_SERVER_ROOT_KEY,
        logger: pino({ level: env.BAILEYS_LOG_LEVEL, base: { component: 'baileys' } }),
        messageStoreLimit: env.BAILEYS_MESSAGE_STORE_LIMIT,
      });
      return { factory, network: null, close: () => authState.close() };
    }
  }
}
