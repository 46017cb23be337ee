/**
 * The Baileys engine: one MessagingEngine per connection attempt of a session. It owns the socket, persists
 * credential updates, restarts the socket once after linking (the server's 515 "restart required" is part of the
 * link, not a disconnect), and reports to the session runner through the EngineListener.
 */
import makeWASocket, {
  type ConnectionState,
  DisconnectReason,
  jidDecode,
  type proto,
  S_WHATSAPP_NET,
  type WASocket,
} from '@whiskeysockets/baileys';
import type { ILogger } from '@whiskeysockets/baileys/lib/Utils/logger.js';
import type {
  EngineListener,
  EngineSession,
  MessagingEngine,
  OutgoingMessage,
} from '#host/engines/engine.port.js';
import type { AuthStateStore } from '#shared/ports/auth-state-store.port.js';
import { loadAuthState } from './baileys-auth-state.js';
import { toBaileysContent } from './baileys-content.js';
import { type ConnectStage, describeClose } from './baileys-disconnect.js';
import {
  inboundFromBaileys,
  statusFromBaileys,
  statusFromOwnUpsert,
  toBaileysJid,
} from './baileys-messages.js';
import type { RecentMessages } from './recent-messages.js';

export interface BaileysEngineOptions {
  authState: AuthStateStore;
  /** The server's WebSocket URL; Baileys' default (WhatsApp) when undefined. */
  webSocketUrl: string | undefined;
  logger: ILogger;
  /** Sent messages kept for the network's retry requests (newest N per session). */
  recentMessages: RecentMessages;
  /**
   * How long a new socket may take to reach the server's first stanza: the WebSocket upgrade, the Noise handshake
   * and the server's answer to it. Enforced by the engine instead of Baileys (see armConnectTimeout).
   */
  connectTimeoutMs: number;
}

/** The HTTP-like status code Baileys attaches (as a Boom) to the error that closed the socket. */
function closeCode(update: Partial<ConnectionState>): number | undefined {
  const error = update.lastDisconnect?.error as { output?: { statusCode?: number } } | undefined;
  return error?.output?.statusCode;
}

export class BaileysEngine implements MessagingEngine {
  private socket: WASocket | null = null;
  private closed = false;
  private credentialsWiped = false;
  private logoutInFlight: Promise<void> | null = null;

  constructor(
    private readonly session: EngineSession,
    private readonly listener: EngineListener,
    private readonly options: BaileysEngineOptions,
  ) {}

  async start(): Promise<void> {
    await this.connect();
  }

  async stop(): Promise<void> {
    this.closed = true;
    const socket = this.socket;
    this.socket = null;
    await socket?.end(undefined);
  }

  /**
   * Unlinks the device and resolves only once the server confirmed it. (Baileys' own `logout()` writes the request
   * and closes without waiting for the answer, so a lost request would look like a successful logout.)
   */
  async logout(): Promise<void> {
    const socket = this.socket;
    const me = socket?.authState.creds.me?.id;
    if (!socket || !me) throw new Error('no open connection to log out');
    this.closed = true;
    const confirmed = socket
      .query({
        tag: 'iq',
        attrs: { to: S_WHATSAPP_NET, type: 'set', id: socket.generateMessageTag(), xmlns: 'md' },
        content: [{ tag: 'remove-companion-device', attrs: { jid: me, reason: 'user_initiated' } }],
      })
      .then((reply: unknown) => {
        if (!reply) throw new Error('logout not confirmed by the network');
      });
    this.logoutInFlight = confirmed;
    try {
      await confirmed;
    } finally {
      this.logoutInFlight = null;
      this.socket = null;
      await socket.end(undefined);
    }
  }

  async forceDestroy(): Promise<void> {
    this.closed = true;
    // A logout still waiting for the server keeps its socket: closing it would lose the server's answer, and the
    // logout closes the socket itself once it settles.
    if (this.logoutInFlight) return;
    const socket = this.socket;
    this.socket = null;
    socket?.ws.close();
    await socket?.end(undefined);
  }

  /** From now on nothing is written to the auth state (it is being wiped). */
  markCredentialsWiped(): void {
    this.credentialsWiped = true;
  }

  async send(message: OutgoingMessage): Promise<{ timestamp: number }> {
    const socket = this.socket;
    if (!socket) throw new Error('no open connection');
    const sent = await socket.sendMessage(toBaileysJid(message.chatId), toBaileysContent(message.content), {
      messageId: message.waMessageId,
    });
    if (sent?.message)
      this.options.recentMessages.remember(this.session.id, message.waMessageId, sent.message);
    return { timestamp: Number(sent?.messageTimestamp ?? Math.floor(Date.now() / 1000)) };
  }

  /** Asks the server for an 8-character pairing code for `phone` (digits only). */
  async requestPairingCode(phone: string): Promise<string> {
    const socket = this.socket;
    if (!socket) throw new Error('no open connection');
    return socket.requestPairingCode(phone);
  }

  private async connect(): Promise<void> {
    const auth = await loadAuthState(this.options.authState, this.session.id, () => !this.credentialsWiped);
    if (this.closed) return;
    const socket = makeWASocket({
      auth: auth.state,
      logger: this.options.logger,
      ...(this.options.webSocketUrl ? { waWebSocketUrl: this.options.webSocketUrl } : {}),
      markOnlineOnConnect: false,
      // Baileys applies connectTimeoutMs to the connect (WebSocket upgrade, Noise hello) and ALSO to every frame it
      // writes afterwards: each write arms a timer, captures two stack traces and builds an error, about a tenth of
      // the CPU of a send. 0 turns all of it off; the engine enforces the connect timeout itself (armConnectTimeout),
      // and once connected Baileys' keep-alive ends a link that stays silent for 35 s, which fails a stalled write.
      connectTimeoutMs: 0,
      // Baileys would replay every message this socket sends as a `messages.upsert` (and its own app-state
      // patches as events): the gateway already knows what it sent, and these replays cost a mutex, an event-buffer
      // pass and a processMessage per send. Delivery states still arrive, as `messages.update`.
      emitOwnEvents: false,
      syncFullHistory: false,
      // The gateway stores messages as they arrive; it has no use for the phone's history and must not wait for it.
      shouldSyncHistoryMessage: () => false,
      // The network asks again for a message a recipient could not decrypt: answer from the recent sends.
      getMessage: async (key): Promise<proto.IMessage | undefined> =>
        key.id ? this.options.recentMessages.get(this.session.id, key.id) : undefined,
    });
    this.socket = socket;
    this.armConnectTimeout(socket);
    const progress: { stage: ConnectStage } = { stage: 'connecting' };
    socket.ws.once('open', () => {
      progress.stage = 'handshaking';
    });
    let pushName = auth.state.creds.me?.name ?? null;
    socket.ev.on('creds.update', (update) => {
      void auth.saveCredentials();
      // The phone sends the push name after the link, often after the connection opened.
      const name = update.me?.name ?? null;
      if (name && name !== pushName && socket === this.socket) {
        pushName = name;
        this.listener.profileChanged({ pushName: name });
      }
    });
    socket.ev.on('connection.update', (update) => this.onConnectionUpdate(socket, update, progress));
    // Both kinds of upsert carry contacts' messages: `notify` those that arrive live, `append` those the network
    // held while the device was offline (gateway down, connection dropped), delivered at the next login. Appends
    // also carry notifications, call stubs and newsletter posts: inboundFromBaileys keeps only contacts' texts, and
    // a message seen twice is stored once (unique network id). A socket being closed still reports what it received:
    // Baileys acknowledged those messages to the network already, which will not deliver them again.
    socket.ev.on('messages.upsert', ({ messages }) => {
      const phone = jidDecode(socket.authState.creds.me?.id ?? '')?.user ?? '';
      for (const message of messages) {
        const own = statusFromOwnUpsert(message);
        if (own) this.listener.messageStatus(own);
        const inbound = inboundFromBaileys(message, phone);
        if (inbound) this.listener.messageReceived(inbound);
      }
    });
    socket.ev.on('call', (calls) => {
      // Session config `autoRejectCalls`: reject an incoming call as soon as it rings.
      if (this.session.config.autoRejectCalls !== true || socket !== this.socket) return;
      for (const call of calls) {
        if (call.status !== 'offer') continue;
        socket.rejectCall(call.id, call.from).catch((error: unknown) => {
          this.options.logger.warn({ err: error, callId: call.id }, 'could not reject a call');
        });
      }
    });
    socket.ev.on('messages.update', (updates) => {
      for (const update of updates) {
        const status = statusFromBaileys(update);
        if (status) this.listener.messageStatus(status);
      }
    });
    // Stored credentials reach the server in the handshake, once the WebSocket is open: a refused or unreachable
    // server never saw them, so the session stays `initializing` rather than showing `authenticating`.
    if (auth.linked) {
      socket.ws.once('open', () => {
        if (!this.closed && socket === this.socket) this.listener.credentialsPresented();
      });
    }
  }

  /**
   * Ends the socket with 408 (as Baileys' own connect timeout did) unless the server's first stanza arrives within
   * `connectTimeoutMs`. Stanzas are decoded nodes, which exist only once the Noise handshake is done, and Baileys'
   * keep-alive watches the link from then on. The handshake's own frames arrive as raw bytes and do not count.
   */
  private armConnectTimeout(socket: WASocket): void {
    const timer = setTimeout(() => {
      if (socket !== this.socket || this.closed) return;
      const error = Object.assign(new Error(`no answer within ${this.options.connectTimeoutMs} ms`), {
        output: { statusCode: DisconnectReason.timedOut },
      });
      void socket.end(error);
    }, this.options.connectTimeoutMs);
    timer.unref();
    const onFrame = (frame: unknown): void => {
      if (!(frame instanceof Uint8Array)) disarm();
    };
    const onUpdate = (update: Partial<ConnectionState>): void => {
      if (update.connection === 'close') disarm();
    };
    const disarm = (): void => {
      clearTimeout(timer);
      socket.ws.off('frame', onFrame);
      socket.ev.off('connection.update', onUpdate);
    };
    socket.ws.on('frame', onFrame);
    socket.ev.on('connection.update', onUpdate);
  }

  private onConnectionUpdate(
    socket: WASocket,
    update: Partial<ConnectionState>,
    progress: { stage: ConnectStage },
  ): void {
    if (this.closed || socket !== this.socket) return;
    if (update.qr) this.listener.qr(update.qr);
    if (update.reachoutTimeLock) {
      const lock = update.reachoutTimeLock;
      this.listener.restriction({
        active: lock.isActive === true,
        kind: 'reachout_timelock',
        code: lock.enforcementType ?? null,
        expiresAt:
          lock.isActive === true && lock.timeEnforcementEnds ? lock.timeEnforcementEnds.toISOString() : null,
      });
    }
    if (update.isNewLogin) this.listener.credentialsPresented();
    if (update.connection === 'open') {
      progress.stage = 'open';
      const me = socket.authState.creds.me;
      const phone = jidDecode(me?.id ?? socket.user?.id ?? '')?.user ?? '';
      this.listener.ready({ phone, pushName: me?.name ?? socket.user?.name ?? null });
      return;
    }
    if (update.connection !== 'close') return;
    this.socket = null;
    const code = closeCode(update);
    if (code === DisconnectReason.restartRequired) {
      // After a QR or code link the server asks for a fresh socket with the new credentials.
      void this.connect().catch((error: unknown) => this.listener.failed(String(error)));
      return;
    }
    if (code === DisconnectReason.loggedOut) {
      this.closed = true;
      this.listener.disconnected({ reason: 'logged out by the network', loggedOut: true });
      return;
    }
    if (code === DisconnectReason.connectionReplaced) {
      // Another client took over this device; reconnecting would fight it for the connection.
      this.closed = true;
      this.listener.failed('connection replaced by another client of the same device');
      return;
    }
    this.closed = true;
    this.listener.disconnected({
      reason: describeClose(update.lastDisconnect?.error, progress.stage, code),
      loggedOut: false,
    });
  }
}
