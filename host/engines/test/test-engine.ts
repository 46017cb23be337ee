/**
 * The deterministic test engine: behaves like a WhatsApp client against a TestNetwork. Without credentials it
 * shows a QR; with them it logs straight in. Behaviours (hanging logout, refused connections) are set on the
 * network by the test.
 */
import type {
  EngineCapability,
  EngineFactory,
  EngineListener,
  EngineSession,
  InboundMessage,
  MessagingEngine,
  OutgoingMessage,
  OutgoingStatus,
  RestrictionNotice,
} from '#host/engines/engine.port.js';
import type { TestNetwork } from './test-network.js';

class TestEngine implements MessagingEngine {
  private closed = false;
  private readonly connection: Parameters<TestNetwork['attach']>[0];

  constructor(
    private readonly session: EngineSession,
    private readonly listener: EngineListener,
    private readonly network: TestNetwork,
  ) {
    this.connection = this.connectionToNetwork();
  }

  private connectionToNetwork(): Parameters<TestNetwork['attach']>[0] {
    return {
      sessionId: this.session.id,
      emitQr: () => this.ifOpen(() => this.listener.qr(this.network.nextQr(this.session.id))),
      emitLinked: (identity: { phone: string; pushName: string | null }) =>
        this.ifOpen(() => {
          this.listener.credentialsPresented();
          this.listener.ready(identity);
        }),
      emitRestriction: (notice: RestrictionNotice) => this.ifOpen(() => this.listener.restriction(notice)),
      emitInbound: (message: InboundMessage) => this.ifOpen(() => this.listener.messageReceived(message)),
      emitStatus: (update: OutgoingStatus) => this.ifOpen(() => this.listener.messageStatus(update)),
      emitDropped: (loggedOut: boolean) =>
        this.ifOpen(() => {
          this.close();
          this.listener.disconnected({ reason: loggedOut ? 'logged out' : 'connection lost', loggedOut });
        }),
    };
  }

  async start(): Promise<void> {
    // Progress is reported asynchronously, as a real client's would be.
    setImmediate(() => {
      if (this.closed) return;
      if (this.network.refusesConnections) {
        this.closed = true;
        this.listener.disconnected({ reason: 'connection refused', loggedOut: false });
        return;
      }
      this.network.attach(this.connection);
      const credentials = this.network.credentialsOf(this.session.id);
      if (credentials) this.connection.emitLinked(credentials);
      else this.connection.emitQr();
    });
  }

  async stop(): Promise<void> {
    if (this.network.stopBehaviour.get(this.session.id) === 'hang') await this.network.hold();
    this.close();
  }

  async logout(): Promise<void> {
    const behaviour = this.network.logoutBehaviour.get(this.session.id) ?? 'ok';
    if (behaviour === 'hang') await this.network.hold();
    if (behaviour === 'fail') throw new Error('logout refused by the network');
    this.network.wipeCredentials(this.session.id);
    this.close();
  }

  async forceDestroy(): Promise<void> {
    this.close();
  }

  async send(message: OutgoingMessage): Promise<{ timestamp: number }> {
    if (this.closed) throw new Error('connection closed');
    this.network.recordSent(this.session.id, message);
    return { timestamp: Math.floor(Date.now() / 1000) };
  }

  async requestPairingCode(phone: string): Promise<string> {
    return this.network.issuePairingCode(this.session.id, phone);
  }

  private close(): void {
    this.closed = true;
    this.network.detach(this.session.id, this.connection);
  }

  private ifOpen(action: () => void): void {
    if (!this.closed) action();
  }
}

/** Factory of test engines sharing one TestNetwork. */
export class TestEngineFactory implements EngineFactory {
  readonly kind = 'test' as const;
  readonly capabilities: ReadonlySet<EngineCapability> = new Set<EngineCapability>(['pairing_code']);

  constructor(readonly network: TestNetwork) {}

  async create(session: EngineSession, listener: EngineListener): Promise<MessagingEngine> {
    return new TestEngine(session, listener, this.network);
  }

  async wipeCredentials(sessionId: string): Promise<void> {
    this.network.wipeCredentials(sessionId);
  }
}
