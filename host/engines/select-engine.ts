/** Chooses the engine factory named by ENGINE; the auth-state store is the composition root's (by mode). */
import { pino } from 'pino';
import type { Env } from '#shared/config/env.js';
import type { AuthStateStore } from '#shared/ports/auth-state-store.port.js';
import type { ChatStore } from '#shared/ports/chat-store.port.js';
import { DeferredEngineFactory } from './deferred-engine-factory.js';
import type { EngineFactory } from './engine.port.js';
import { TestDeviceStore } from './test/test-device-store.js';
import { TestEngineFactory } from './test/test-engine.js';
import { TestNetwork } from './test/test-network.js';

/** How long the engine waits for a received file before storing its message without it. */
const MEDIA_DOWNLOAD_TIMEOUT_MS = 60_000;

export interface SelectedEngine {
  factory: EngineFactory;
  /** The test engine's network (ENGINE=test or test-core), for tests to act as the phone. */
  network: TestNetwork | null;
  close(): Promise<void>;
}

export function selectEngine(
  env: Env,
  options: {
    authState: () => AuthStateStore;
    /** The chat list the host keeps, which the Baileys engine's chat operations read. */
    chats: Pick<ChatStore, 'findById'>;
    testNetwork?: TestNetwork | undefined;
  },
): SelectedEngine {
  switch (env.ENGINE) {
    case 'test':
    case 'test-core': {
      const network = options.testNetwork ?? new TestNetwork();
      // Linked devices keep their identity in the auth-state store too, so it moves with the data export.
      const device = new TestDeviceStore(options.authState);
      return { factory: new TestEngineFactory(network, env.ENGINE, device), network, close: async () => {} };
    }
    case 'baileys': {
      const authState = options.authState();
      const baileysOptions = {
        authState,
        webSocketUrl: env.WA_WEBSOCKET_URL,
        serverRootKey: env.WA_SERVER_ROOT_KEY,
        logger: pino({ level: env.BAILEYS_LOG_LEVEL, base: { component: 'baileys' } }),
        messageStoreLimit: env.BAILEYS_MESSAGE_STORE_LIMIT,
        connectTimeoutMs: env.BAILEYS_CONNECT_TIMEOUT_MS,
        media: { maxBytes: env.MEDIA_DOWNLOAD_MAX_BYTES, timeoutMs: MEDIA_DOWNLOAD_TIMEOUT_MS },
        chats: options.chats,
      };
      // Baileys is loaded with the first session's engine (see DeferredEngineFactory).
      const factory = new DeferredEngineFactory(
        'baileys',
        async () =>
          new (await import('./baileys/baileys-engine-factory.js')).BaileysEngineFactory(baileysOptions),
        (sessionId) => authState.wipe(sessionId),
      );
      // The store belongs to the composition root, which closes it after the engines.
      return { factory, network: null, close: async () => {} };
    }
  }
}
