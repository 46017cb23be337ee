/**
 * The Baileys engine's connection: the socket of one connection attempt and its lifecycle. It creates the socket
 * (and a fresh one once after linking: the server's 515 "restart required" is part of the link, not a disconnect),
 * enforces the connect timeout, persists credential updates, turns `connection.update` into engine events, and
 * stops, logs out or destroys the socket. The other concerns (inbound, calls) attach to each new socket through
 * `onSocket`; sending and pairing use the current socket.
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
import type { Dispatcher } from 'undici';
import type { EngineSession } from '#host/engines/engine.port.js';
import type { EngineEmitter } from '#host/engines/engine-events.js';
import type { AuthStateStore } from '#shared/ports/auth-state-store.port.js';
import { loadAuthState } from './baileys-auth-state.js';
import { type ConnectStage, describeClose } from './baileys-disconnect.js';
import { type BaileysProxy, baileysProxyOf } from './baileys-proxy.js';

export interface BaileysConnectionOptions {
  authState: AuthStateStore;
  /** The server's WebSocket URL; Baileys' default (WhatsApp) when undefined. */
  webSocketUrl: string | undefined;
  logger: ILogger;
  /**
   * How long a new socket may take to reach the server's first stanza: the WebSocket upgrade, the Noise handshake
   * and the server's answer to it. Enforced here instead of by Baileys (see armConnectTimeout).
   */
  connectTimeoutMs: number;
  /** A message this session sent recently, for the network's retry requests (see BaileysSending). */
  sentMessage(waMessageId: string): proto.IMessage | undefined;
  /** Called with each decrypted message before its receipt; resolves once it is stored (see BaileysInbound). */
  beforeReceipt(socket: WASocket, message: proto.IWebMessageInfo): Promise<void>;
  /** Attaches the other concerns' handlers to a socket just created (before it has emitted anything). */
  onSocket(socket: WASocket): void;
}

/** The HTTP-like status code Baileys attaches (as a Boom) to the error that closed the socket. */
function closeCode(update: Partial<ConnectionState>): number | undefined {
  const error = update.lastDisconnect?.error as { output?: { statusCode?: number } } | undefined;
  return error?.output?.statusCode;
}

export class BaileysConnection {
  private socket: WASocket | null = null;
  private closed = false;
  private credentialsWiped = false;
  private logoutInFlight: Promise<void> | null = null;
  private proxy: BaileysProxy | null | undefined;

  constructor(
    private readonly session: EngineSession,
    private readonly events: EngineEmitter,
    private readonly options: BaileysConnectionOptions,
  ) {}

  /** The dispatcher media downloads take: through the session's proxy, or undefined (direct). */
  get mediaDispatcher(): Dispatcher | undefined {
    return this.proxy?.dispatcher;
  }

  /** The open socket, or null (not connected yet, restarting after a link, or closed). */
  get current(): WASocket | null {
    return this.socket;
  }

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

  /** Whether the session's state may still be written (false once it is being wiped). */
  get persisting(): boolean {
    return !this.credentialsWiped;
  }

  private async connect(): Promise<void> {
    const auth = await loadAuthState(this.options.authState, this.session.id, () => this.persisting);
    if (this.closed) return;
    // A proxy that cannot be used fails the start: the session never connects around its proxy. The session's
    // proxy is fixed for the engine's life (a change applies on the next start), so reconnects reuse its agents.
    this.proxy ??= baileysProxyOf(this.session.proxyUrl, this.options.webSocketUrl);
    const proxy = this.proxy;
    const socket = makeWASocket({
      auth: auth.state,
      logger: this.options.logger,
      ...(this.options.webSocketUrl ? { waWebSocketUrl: this.options.webSocketUrl } : {}),
      ...(proxy ? { agent: proxy.agent, fetchAgent: proxy.fetchAgent } : {}),
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
        key.id ? this.options.sentMessage(key.id) : undefined,
      // The receipt of a contact's message waits until the message is stored (Waygate's Baileys patch).
      beforeMessageReceipt: (message) => this.options.beforeReceipt(socket, message),
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
        this.events.emit('profileChanged', { pushName: name });
      }
    });
    socket.ev.on('connection.update', (update) =>
      this.onConnectionUpdate(socket, update, progress, proxy?.host),
    );
    this.options.onSocket(socket);
    // Stored credentials reach the server in the handshake, once the WebSocket is open: a refused or unreachable
    // server never saw them, so the session stays `initializing` rather than showing `authenticating`.
    if (auth.linked) {
      socket.ws.once('open', () => {
        if (!this.closed && socket === this.socket) this.events.emit('credentialsPresented', {});
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
    proxyHost: string | undefined,
  ): void {
    if (this.closed || socket !== this.socket) return;
    if (update.qr) this.events.emit('qr', { qr: update.qr });
    if (update.reachoutTimeLock) {
      const lock = update.reachoutTimeLock;
      this.events.emit('restriction', {
        active: lock.isActive === true,
        kind: 'reachout_timelock',
        code: lock.enforcementType ?? null,
        expiresAt:
          lock.isActive === true && lock.timeEnforcementEnds ? lock.timeEnforcementEnds.toISOString() : null,
      });
    }
    if (update.isNewLogin) this.events.emit('credentialsPresented', {});
    if (update.connection === 'open') {
      progress.stage = 'open';
      const me = socket.authState.creds.me;
      const phone = jidDecode(me?.id ?? socket.user?.id ?? '')?.user ?? '';
      this.events.emit('ready', { phone, pushName: me?.name ?? socket.user?.name ?? null });
      return;
    }
    if (update.connection !== 'close') return;
    this.socket = null;
    const code = closeCode(update);
    if (code === DisconnectReason.restartRequired) {
      // After a QR or code link the server asks for a fresh socket with the new credentials.
      void this.connect().catch((error: unknown) => this.events.emit('failed', { reason: String(error) }));
      return;
    }
    if (code === DisconnectReason.loggedOut) {
      this.closed = true;
      this.events.emit('disconnected', { reason: 'logged out by the network', loggedOut: true });
      return;
    }
    if (code === DisconnectReason.connectionReplaced) {
      // Another client took over this device; reconnecting would fight it for the connection.
      this.closed = true;
      this.events.emit('failed', { reason: 'connection replaced by another client of the same device' });
      return;
    }
    this.closed = true;
    this.events.emit('disconnected', {
      reason: describeClose(update.lastDisconnect?.error, progress.stage, code, proxyHost),
      loggedOut: false,
    });
  }
}
