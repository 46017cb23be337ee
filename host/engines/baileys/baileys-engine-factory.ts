/** Builds Baileys engines sharing one auth-state store and one Baileys logger. */
import type { ILogger } from '@whiskeysockets/baileys/lib/Utils/logger.js';
import type { EngineFactory, EngineSession, MessagingEngine } from '#host/engines/engine.port.js';
import type { EngineEmitter } from '#host/engines/engine-events.js';
import type { ChatPresence } from '#shared/domain/chat-presence.js';
import { capabilitiesOf, type EngineCapability } from '#shared/domain/engine-capabilities.js';
import type { AuthStateStore } from '#shared/ports/auth-state-store.port.js';
import type { ChatStore } from '#shared/ports/chat-store.port.js';
import { BaileysEngine } from './baileys-engine.js';
import type { InboundMediaOptions } from './baileys-inbound-media.js';
import { quietLibsignal } from './quiet-libsignal.js';
import { RecentMessages } from './recent-messages.js';
import { trustServerRootKey } from './server-trust.js';

export interface BaileysFactoryOptions {
  authState: AuthStateStore;
  webSocketUrl: string | undefined;
  /** Base64 root key of a private server to trust instead of WhatsApp's (see server-trust.ts). */
  serverRootKey: string | undefined;
  logger: ILogger;
  /** Newest sent messages kept per session for retry requests. */
  messageStoreLimit: number;
  /** How long a new socket may take to reach the server's first stanza. */
  connectTimeoutMs: number;
  /** Received media: the size cap (MEDIA_DOWNLOAD_MAX_BYTES) and the download deadline. */
  media: InboundMediaOptions;
  /** The gateway's chat list, which chat operations read a chat's last message from. */
  chats: Pick<ChatStore, 'findById'>;
}

export class BaileysEngineFactory implements EngineFactory {
  readonly kind = 'baileys' as const;
  readonly capabilities: ReadonlySet<EngineCapability> = capabilitiesOf('baileys');

  /** Engines by session, so a wipe can stop every socket of the session from writing credentials back. */
  private readonly engines = new Map<string, Set<BaileysEngine>>();
  private readonly recentMessages: RecentMessages;
  /** Each session's last reported presence per chat (in memory only), across its reconnects. */
  private readonly presence = new Map<string, Map<string, ChatPresence>>();

  constructor(private readonly options: BaileysFactoryOptions) {
    if (options.serverRootKey) trustServerRootKey(options.serverRootKey);
    // libsignal would otherwise print whole Signal sessions (key material included) to the console.
    quietLibsignal();
    this.recentMessages = new RecentMessages(options.messageStoreLimit);
  }

  async create(session: EngineSession, events: EngineEmitter): Promise<MessagingEngine> {
    const engine = new BaileysEngine(session, events, {
      authState: this.options.authState,
      webSocketUrl: this.options.webSocketUrl,
      logger: this.options.logger,
      recentMessages: this.recentMessages,
      connectTimeoutMs: this.options.connectTimeoutMs,
      media: this.options.media,
      chatOf: (chatId) => this.options.chats.findById(session.id, chatId),
      reportedPresence: this.reportedPresenceOf(session.id),
    });
    // Only the newest engine of a session can still matter: older ones are closed by the runner before a new one.
    this.engines.set(session.id, new Set([engine]));
    return engine;
  }

  async wipeCredentials(sessionId: string): Promise<void> {
    for (const engine of this.engines.get(sessionId) ?? []) engine.markCredentialsWiped();
    this.engines.delete(sessionId);
    this.recentMessages.forget(sessionId);
    this.presence.delete(sessionId);
    await this.options.authState.wipe(sessionId);
  }

  private reportedPresenceOf(sessionId: string): Map<string, ChatPresence> {
    let reported = this.presence.get(sessionId);
    if (!reported) {
      reported = new Map();
      this.presence.set(sessionId, reported);
    }
    return reported;
  }
}
