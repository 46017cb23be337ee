/**
 * The Baileys engine: one MessagingEngine per connection attempt of a session, composed of one part per concern so
 * that a feature edits its own file: the connection (socket lifecycle, credentials, connection events;
 * baileys-connection.ts), sending (baileys-sending.ts), inbound messages (baileys-inbound.ts), calls
 * (baileys-calls.ts), pairing (baileys-pairing.ts), contacts (baileys-contacts.ts, over the contact book of
 * baileys-contact-book.ts), chats (baileys-chats.ts; what Baileys tells of them: baileys-chat-events.ts), presence
 * (baileys-presence.ts), groups (baileys-groups.ts; their changes: baileys-group-events.ts), labels
 * (baileys-labels.ts) and status updates (baileys-statuses.ts; a contact's: baileys-status-inbound.ts). It exposes
 * the ports of the `baileys` row of the capability table and reports to the session runner through its
 * EngineEmitter.
 */
import type { ILogger } from '@whiskeysockets/baileys/lib/Utils/logger.js';
import type { EngineSession, MessagingEngine } from '#host/engines/engine.port.js';
import type { EngineEmitter } from '#host/engines/engine-events.js';
import type { OutgoingMessage } from '#host/engines/ports/messaging.port.js';
import type { ChatPresence } from '#shared/domain/chat-presence.js';
import type { AuthStateStore } from '#shared/ports/auth-state-store.port.js';
import { BaileysCalls } from './baileys-calls.js';
import { BaileysChatEvents } from './baileys-chat-events.js';
import { BaileysChats, type ChatLookup } from './baileys-chats.js';
import { BaileysConnection } from './baileys-connection.js';
import { BaileysContactBook } from './baileys-contact-book.js';
import { BaileysContacts } from './baileys-contacts.js';
import { listenForGroupChanges } from './baileys-group-events.js';
import { BaileysGroups } from './baileys-groups.js';
import { BaileysInbound } from './baileys-inbound.js';
import type { InboundMediaOptions } from './baileys-inbound-media.js';
import { BaileysLabels } from './baileys-labels.js';
import { BaileysPairing } from './baileys-pairing.js';
import { BaileysPresence } from './baileys-presence.js';
import { BaileysSending } from './baileys-sending.js';
import { BaileysStatus } from './baileys-statuses.js';
import type { RecentMessages } from './recent-messages.js';

export interface BaileysEngineOptions {
  authState: AuthStateStore;
  /** The server's WebSocket URL; Baileys' default (WhatsApp) when undefined. */
  webSocketUrl: string | undefined;
  logger: ILogger;
  /** Sent messages kept for the network's retry requests (newest N per session). */
  recentMessages: RecentMessages;
  /** How long a new socket may take to reach the server's first stanza (see BaileysConnection). */
  connectTimeoutMs: number;
  /** Received media: the size cap and the download deadline. */
  media: InboundMediaOptions;
  /** The session's chats as the gateway keeps them (a chat's last message, which chat operations name). */
  chatOf: ChatLookup;
  /** The session's last reported presence per chat, kept across its engines by the factory. */
  reportedPresence: Map<string, ChatPresence>;
}

export class BaileysEngine implements MessagingEngine {
  readonly pairing: BaileysPairing;
  readonly calls: BaileysCalls;
  readonly contacts: BaileysContacts;
  readonly chats: BaileysChats;
  readonly presence: BaileysPresence;
  readonly groups: BaileysGroups;
  readonly labels: BaileysLabels;
  readonly status: BaileysStatus;
  private readonly connection: BaileysConnection;
  private readonly sending: BaileysSending;

  constructor(session: EngineSession, events: EngineEmitter, options: BaileysEngineOptions) {
    const socket = () => this.connection.current;
    this.sending = new BaileysSending(session.id, socket, options.recentMessages);
    this.pairing = new BaileysPairing(socket);
    this.status = new BaileysStatus(socket, (id, message) =>
      options.recentMessages.remember(session.id, id, message),
    );
    this.calls = new BaileysCalls(events);
    const book = new BaileysContactBook({
      authState: options.authState,
      sessionId: session.id,
      persisting: () => this.connection.persisting,
      logger: options.logger,
    });
    this.contacts = new BaileysContacts(socket, book);
    this.chats = new BaileysChats(socket, options.chatOf, events);
    const chatEvents = new BaileysChatEvents(events);
    this.groups = new BaileysGroups(socket);
    this.labels = new BaileysLabels(socket);
    this.presence = new BaileysPresence(socket, events, {
      sessionId: session.id,
      authState: options.authState,
      reported: options.reportedPresence,
      persisting: () => this.connection.persisting,
      logger: options.logger,
    });
    const inbound = new BaileysInbound(events, options.media, () => this.connection.mediaDispatcher);
    this.connection = new BaileysConnection(session, events, {
      authState: options.authState,
      webSocketUrl: options.webSocketUrl,
      logger: options.logger,
      connectTimeoutMs: options.connectTimeoutMs,
      sentMessage: (waMessageId) => this.sending.sentMessage(waMessageId),
      beforeReceipt: (created, message) => inbound.beforeReceipt(created, message),
      onSocket: (created) => {
        inbound.listen(created);
        book.listen(created);
        chatEvents.listen(created);
        this.presence.listen(created);
        listenForGroupChanges(created, events);
        this.calls.listen(created, () => created === this.connection.current);
      },
    });
  }

  start(): Promise<void> {
    return this.connection.start();
  }

  stop(): Promise<void> {
    return this.connection.stop();
  }

  logout(): Promise<void> {
    return this.connection.logout();
  }

  forceDestroy(): Promise<void> {
    return this.connection.forceDestroy();
  }

  send(message: OutgoingMessage): Promise<{ timestamp: number }> {
    return this.sending.send(message);
  }

  /** From now on nothing is written to the auth state (it is being wiped). */
  markCredentialsWiped(): void {
    this.connection.markCredentialsWiped();
  }
}
