/**
 * The deterministic test engine: behaves like a WhatsApp client against a TestNetwork. Without credentials it
 * shows a QR; with them it logs straight in. Behaviours (hanging logout, refused connections) are set on the
 * network by the test. It implements the same ports as a real engine and checks every event it emits against its
 * schema, so a test that feeds it a malformed payload fails there.
 *
 * It runs as two kinds: `test`, and `test-core`, which has none of the capabilities and so exposes none of the
 * optional ports. Which ports an engine exposes follows its kind's column of the capability table, so the table
 * stays the one place that says what each kind has.
 */
import {
  capabilitiesOf,
  type EngineCapability,
  type OptionalEnginePort,
  portsOf,
} from '#shared/domain/engine-capabilities.js';
import type { PortOperations } from '#shared/domain/engine-operations/engine-operations.js';
import type { EngineFactory, EngineSession, MessagingEngine } from '../engine.port.js';
import { checkedEmitter, type EngineEmitter, type LinkedIdentity } from '../engine-events.js';
import type { OutgoingMessage } from '../ports/messaging.port.js';
import type { EnginePairing } from '../ports/pairing.port.js';
import type { EngineStatus } from '../ports/status.port.js';
import { testCalls } from './test-calls.js';
import { testChats } from './test-chats.js';
import { testContacts } from './test-contacts.js';
import type { TestDeviceStore } from './test-device-store.js';
import { testGroups } from './test-groups.js';
import { testLabels } from './test-labels.js';
import type { NetworkConnection, TestNetwork } from './test-network.js';
import { testPresence } from './test-presence.js';
import { testStatus } from './test-statuses.js';

/** The kinds this engine runs as. */
export type TestEngineKind = 'test' | 'test-core';

class TestEngine implements MessagingEngine {
  readonly pairing?: EnginePairing;
  readonly calls?: ReturnType<typeof testCalls>;
  readonly contacts?: PortOperations<'contacts'>;
  readonly chats?: PortOperations<'chats'>;
  readonly presence?: PortOperations<'presence'>;
  readonly groups?: PortOperations<'groups'>;
  readonly labels?: PortOperations<'labels'>;
  readonly status?: EngineStatus;
  private closed = false;
  private readonly events: EngineEmitter;
  private readonly connection: NetworkConnection;

  constructor(
    private readonly session: EngineSession,
    events: EngineEmitter,
    private readonly network: TestNetwork,
    ports: ReadonlySet<OptionalEnginePort>,
    private readonly device: TestDeviceStore | null,
  ) {
    this.events = checkedEmitter(events);
    this.connection = {
      sessionId: session.id,
      // A closed engine reports nothing more, as a closed socket would not.
      emit: (name, data) => {
        if (this.closed) return;
        // A device linked by a QR scan keeps its identity, as a real engine writes its credentials.
        if (name === 'ready' && device) void device.keep(session.id, data as LinkedIdentity).catch(() => {});
        this.events.emit(name, data);
      },
      receive: (message) => (this.closed ? Promise.resolve() : this.events.receive(message)),
      receiveChange: (change) => (this.closed ? Promise.resolve() : this.events.receiveChange(change)),
      receiveStatus: (status) => (this.closed ? Promise.resolve() : this.events.receiveStatus(status)),
      drop: (loggedOut) => {
        if (this.closed) return;
        this.close();
        this.events.emit('disconnected', { reason: loggedOut ? 'logged out' : 'connection lost', loggedOut });
      },
    };
    if (ports.has('pairing')) {
      this.pairing = {
        requestPairingCode: async (phone) => network.issuePairingCode(session.id, phone),
      };
    }
    if (ports.has('contacts'))
      this.contacts = testContacts(network.directory, session.id, () => !this.closed);
    if (ports.has('chats')) {
      this.chats = testChats(network.chats, session.id, this.connection.emit, () => !this.closed);
    }
    if (ports.has('presence')) this.presence = testPresence(network.presence, session.id, () => !this.closed);
    if (ports.has('groups')) {
      this.groups = testGroups({
        groups: network.groups,
        directory: network.directory,
        me: () => `${network.credentialsOf(session.id)?.phone ?? ''}@c.us`,
        emit: this.connection.emit,
        open: () => !this.closed,
      });
    }
    if (ports.has('labels')) this.labels = testLabels(network.labels, session.id, () => !this.closed);
    if (ports.has('status')) this.status = testStatus(network.statuses, session.id, () => !this.closed);
    if (ports.has('calls'))
      this.calls = testCalls(network, session.id, this.connection.emit, () => !this.closed);
  }

  async start(): Promise<void> {
    if (this.network.holdConnects) await this.network.hold();
    // Progress is reported asynchronously, as a real client's would be.
    setImmediate(() => void this.connect());
  }

  private async connect(): Promise<void> {
    if (this.closed) return;
    if (this.network.refusesConnections) {
      this.closed = true;
      this.events.emit('disconnected', { reason: 'connection refused', loggedOut: false });
      return;
    }
    const id = this.session.id;
    this.network.attach(this.connection);
    let credentials = this.network.credentialsOf(id);
    try {
      if (credentials) await this.device?.keep(id, credentials);
      else if (this.device) {
        // Credentials imported from another deployment: the network knows the device once it presents them.
        credentials = await this.device.recall(id);
        if (credentials) this.network.storeCredentials(id, credentials);
      }
    } catch {
      // The store failing (closed while stopping, say) is a failed connection attempt, as for a real engine.
      this.connection.drop(false);
      return;
    }
    if (this.closed) return;
    if (credentials) this.network.linked(this.connection, credentials);
    else this.connection.emit('qr', { qr: this.network.nextQr(id) });
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
    await this.device?.forget(this.session.id);
    this.close();
  }

  async forceDestroy(): Promise<void> {
    this.close();
  }

  async send(message: OutgoingMessage): Promise<{ timestamp: number }> {
    if (this.closed) throw new Error('connection closed');
    if (this.network.refusesSends(this.session.id)) throw new Error('send refused by the network');
    if (this.network.refusedChats.has(message.chatId)) throw new Error('the network refused the message');
    this.network.recordSent(this.session.id, message);
    return { timestamp: message.timestamp ?? Math.floor(Date.now() / 1000) };
  }

  private close(): void {
    this.closed = true;
    this.network.detach(this.session.id, this.connection);
  }
}

/** Factory of test engines of one kind sharing one TestNetwork. */
export class TestEngineFactory implements EngineFactory {
  readonly capabilities: ReadonlySet<EngineCapability>;
  private readonly ports: ReadonlySet<OptionalEnginePort>;

  constructor(
    readonly network: TestNetwork,
    readonly kind: TestEngineKind = 'test',
    /** Where linked devices keep their identity (the deployment's auth state); null: in the network only. */
    private readonly device: TestDeviceStore | null = null,
  ) {
    this.capabilities = capabilitiesOf(kind);
    this.ports = portsOf(kind);
  }

  async create(session: EngineSession, events: EngineEmitter): Promise<MessagingEngine> {
    return new TestEngine(session, events, this.network, this.ports, this.device);
  }

  async wipeCredentials(sessionId: string): Promise<void> {
    this.network.wipeCredentials(sessionId);
    await this.device?.forget(sessionId);
  }
}
