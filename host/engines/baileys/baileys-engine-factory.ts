/** Builds Baileys engines sharing one auth-state store and one Baileys logger. */
import type { ILogger } from '@whiskeysockets/baileys/lib/Utils/logger.js';
import type { AuthStateStore } from '../../../shared/ports/auth-state-store.port.js';
import type {
  EngineCapability,
  EngineFactory,
  EngineListener,
  EngineSession,
  MessagingEngine,
} from '../engine.port.js';
import { BaileysEngine } from './baileys-engine.js';
import { trustServerRootKey } from './server-trust.js';

export interface BaileysFactoryOptions {
  authState: AuthStateStore;
  webSocketUrl: string | undefined;
  /** Base64 root key of a private server to trust instead of WhatsApp's (see server-trust.ts). */
  serverRootKey: string | undefined;
  logger: ILogger;
}

export class BaileysEngineFactory implements EngineFactory {
  readonly kind = 'baileys' as const;
  readonly capabilities: ReadonlySet<EngineCapability> = new Set<EngineCapability>([
    'pairing_code',
    'presence_subscribe',
    'labels_edit',
    'reject_calls',
  ]);

  constructor(private readonly options: BaileysFactoryOptions) {
    if (options.serverRootKey) trustServerRootKey(options.serverRootKey);
  }

  create(session: EngineSession, listener: EngineListener): MessagingEngine {
    return new BaileysEngine(session, listener, {
      authState: this.options.authState,
      webSocketUrl: this.options.webSocketUrl,
      logger: this.options.logger,
    });
  }

  async wipeCredentials(sessionId: string): Promise<void> {
    await this.options.authState.wipe(sessionId);
  }
}
