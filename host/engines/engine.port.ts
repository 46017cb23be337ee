/**
 * The engine port: what the host needs from a WhatsApp client library. Engines report through an EngineListener;
 * the session runner owns status, reconnects and persistence, so an engine never writes the store itself.
 */
import type { OutgoingContent } from '#shared/domain/outgoing-content.js';
import type { SessionConfig } from '#shared/domain/session.js';

export type EngineKind = 'test' | 'baileys' | 'webjs';

/** Optional abilities; an operation whose capability is absent is refused with 501 before the engine is called. */
export type EngineCapability =
  | 'pairing_code'
  | 'presence_subscribe'
  | 'labels_read'
  | 'labels_edit'
  | 'reject_calls';

export interface LinkedIdentity {
  phone: string;
  pushName: string | null;
}

export interface DisconnectInfo {
  reason: string;
  /** The network unlinked the device (credentials are void): no reconnect, status disconnected. */
  loggedOut: boolean;
}

/** A message that arrived from the network, in neutral ids (`<number>@c.us`, `<id>@g.us`). */
export interface InboundMessage {
  waMessageId: string;
  chatId: string;
  /** The sender; for group messages the group (the participant is `author`). */
  from: string;
  to: string;
  author: string | null;
  body: string | null;
  type: string;
  /** Epoch seconds. */
  timestamp: number;
  pushName: string | null;
}

/** A delivery-state change of a message this session sent. */
export interface OutgoingStatus {
  waMessageId: string;
  chatId: string;
  status: 'sent' | 'delivered' | 'read' | 'failed';
}

/** A message to send: what (one of the outgoing content kinds), to which chat, under which network id. */
export interface OutgoingMessage {
  chatId: string;
  /** The pre-generated network id: the engine sends under this id so a retried command is the same message. */
  waMessageId: string;
  content: OutgoingContent;
}

/** A restriction the network put on (or lifted from) the account: deliberate evidence, never a failed probe. */
export interface RestrictionNotice {
  active: boolean;
  /** e.g. `reachout_timelock`. */
  kind: string;
  /** The network's reason code, when it gives one. */
  code: string | null;
  /** ISO time the restriction ends, when known. */
  expiresAt: string | null;
}

/** Callbacks from one engine instance to its session runner. */
export interface EngineListener {
  qr(qr: string): void;
  credentialsPresented(): void;
  ready(identity: LinkedIdentity): void;
  disconnected(info: DisconnectInfo): void;
  /** A terminal failure (e.g. authentication refused): no reconnect. */
  failed(reason: string): void;
  restriction(notice: RestrictionNotice): void;
  /** The account's push name became known or changed (it may arrive after the connection opened). */
  profileChanged(profile: { pushName: string | null }): void;
  messageReceived(message: InboundMessage): void;
  messageStatus(update: OutgoingStatus): void;
}

export interface EngineSession {
  id: string;
  name: string;
  config: SessionConfig;
}

/** One connection attempt's client. A new instance is created for every (re)connect. */
export interface MessagingEngine {
  /** Begins connecting; resolves once the attempt is under way. Progress arrives through the listener. */
  start(): Promise<void>;
  /** Closes the connection, keeping credentials. */
  stop(): Promise<void>;
  /** Unlinks the device on the network and wipes its credentials. */
  logout(): Promise<void>;
  /** Tears the client down at once without waiting for the network (stuck engines). */
  forceDestroy(): Promise<void>;
  /** Sends a message; resolves once the network accepted it (epoch-second timestamp of the send). */
  send(message: OutgoingMessage): Promise<{ timestamp: number }>;
  /** Asks for an 8-character code to link by phone number instead of QR (capability `pairing_code`). */
  requestPairingCode?(phone: string): Promise<string>;
}

/** Builds engines of one kind and manages their stored credentials. */
export interface EngineFactory {
  readonly kind: EngineKind;
  readonly capabilities: ReadonlySet<EngineCapability>;
  /** Builds the engine of one connection attempt (an engine library may be loaded on first use). */
  create(session: EngineSession, listener: EngineListener): Promise<MessagingEngine>;
  /** Deletes a session's stored credentials (delete, logout). */
  wipeCredentials(sessionId: string): Promise<void>;
}
