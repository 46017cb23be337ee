/**
 * One client WebSocket: the Noise handshake, then binary nodes in both directions. Inbound nodes are handled one
 * at a time in arrival order (Signal sessions need pkmsg before msg), except iq replies, which settle the
 * server's own pending queries at once so a handler may await the client without blocking its own queue.
 * A connection carries the device it logged in as without looking into it: the device is the accounts' type
 * (`ClientConnection` there), so the transport does not depend on the accounts.
 */
import type { Duplex } from 'node:stream';
import type { WebSocket } from 'ws';
import type { SimLogger } from '#tests/wa-sim/support/log.js';
import { type BinaryNode, decodeNode, encodeNode, makeNode, nodeToString } from './binary.js';
import type { ClientHello, NoiseServer } from './noise-server.js';

/** Where a connection is in its life. */
export type ConnectionState = 'hello' | 'finish' | 'open' | 'closed';

/** Callbacks the simulator gives each connection. */
export interface ConnectionHandlers<Device> {
  /** The handshake finished; decide between registration and login. */
  onAuthenticated(connection: SimConnection<Device>, hello: ClientHello): Promise<void>;
  /** A node arrived (iq replies to the server's own queries excepted). */
  onNode(connection: SimConnection<Device>, node: BinaryNode): Promise<void>;
  /** The socket closed, whoever closed it. */
  onClose(connection: SimConnection<Device>): void;
}

const DEFAULT_QUERY_TIMEOUT_MS = 15_000;
let nextConnectionId = 1;

/** A client connection and the device it logged in as, if any. */
export class SimConnection<Device> {
  readonly id = nextConnectionId++;
  state: ConnectionState = 'hello';
  /** The linked device this connection logged in as. */
  device: Device | undefined;
  private inbound: Promise<void> = Promise.resolve();
  private work: Promise<void> = Promise.resolve();
  private readonly waiters = new Map<
    string,
    { resolve: (node: BinaryNode) => void; reject: (error: Error) => void }
  >();
  private readonly closeListeners: Array<() => void> = [];
  private queryCounter = 0;
  /** The TCP socket under the WebSocket while it is corked until the end of this event-loop turn. */
  private corked: Duplex | null = null;

  constructor(
    private readonly socket: WebSocket,
    private readonly noise: NoiseServer,
    private readonly handlers: ConnectionHandlers<Device>,
    private readonly log: SimLogger,
  ) {
    socket.on('message', (data: Buffer) => {
      this.inbound = this.inbound.then(() => this.receive(data)).catch((error) => this.abort(error));
    });
    socket.on('close', () => this.closed());
    socket.on('error', (error) => this.log.debug(`connection ${this.id} socket error`, error));
  }

  /** True while the socket can carry nodes. */
  get isOpen(): boolean {
    return this.state === 'open' && this.socket.readyState === this.socket.OPEN;
  }

  /** Sends one node (dropped silently once the socket is gone). */
  send(node: BinaryNode): void {
    if (this.socket.readyState !== this.socket.OPEN) return;
    if (this.log.debugEnabled) this.log.debug(`S→C#${this.id} ${nodeToString(node)}`);
    this.holdWrites();
    this.socket.send(this.noise.encodeFrame(encodeNode(node)));
  }

  /**
   * Nodes sent during one turn of the event loop (an ack and the receipt that follows it, say) leave in one write,
   * as a busy server's would, instead of one system call and one TCP segment each. Order and content are unchanged;
   * the frames go out when this turn ends.
   */
  private holdWrites(): void {
    if (this.corked) return;
    // ws keeps the TCP socket private; corking it only batches the frames ws writes (ws corks it the same way).
    const raw = (this.socket as unknown as { _socket?: Duplex | null })._socket;
    if (!raw || raw.destroyed) return;
    raw.cork();
    this.corked = raw;
    setImmediate(() => this.flushWrites());
  }

  private flushWrites(): void {
    const raw = this.corked;
    this.corked = null;
    raw?.uncork();
  }

  /** Sends an iq and resolves with the client's reply (result or error). */
  query(node: BinaryNode, timeoutMs = DEFAULT_QUERY_TIMEOUT_MS): Promise<BinaryNode> {
    const id = node.attrs.id ?? `sim-q${this.id}-${++this.queryCounter}`;
    const stanza: BinaryNode = { ...node, attrs: { ...node.attrs, id } };
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        this.waiters.delete(id);
        reject(new Error(`client did not answer iq ${id}`));
      }, timeoutMs);
      this.waiters.set(id, {
        resolve: (reply) => {
          clearTimeout(timer);
          resolve(reply);
        },
        reject: (error) => {
          clearTimeout(timer);
          reject(error);
        },
      });
      this.send(stanza);
    });
  }

  /** Runs `listener` once the socket closes (at once if it already has). */
  onClosed(listener: () => void): void {
    if (this.state === 'closed') listener();
    else this.closeListeners.push(listener);
  }

  /** Sends `<stream:error>` (with a code or a reason child) and closes, as the server ends a session. */
  endWithStreamError(code: string | undefined, reason?: BinaryNode): void {
    this.send(makeNode('stream:error', { code }, reason ? [reason] : undefined));
    this.closeSoon();
  }

  /** Sends `<failure reason>` and closes; 401 makes the client treat itself as logged out. */
  sendFailure(reason: number): void {
    this.send(makeNode('failure', { reason: String(reason), location: 'wa-sim' }));
    this.closeSoon();
  }

  /** Drops the socket without a goodbye, like a network cut. */
  terminate(): void {
    this.flushWrites();
    this.socket.terminate();
  }

  /** Closes gracefully after queued frames are flushed. */
  closeSoon(): void {
    setImmediate(() => this.socket.close());
  }

  private async receive(data: Buffer): Promise<void> {
    for (const frame of this.noise.receive(data)) {
      if (this.state === 'hello') {
        this.socket.send(this.noise.respondToHello(frame));
        this.state = 'finish';
      } else if (this.state === 'finish') {
        const hello = this.noise.acceptFinish(frame);
        this.state = 'open';
        this.enqueue(() => this.handlers.onAuthenticated(this, hello));
      } else if (this.state === 'open') {
        const node = await decodeNode(frame);
        if (this.log.debugEnabled) this.log.debug(`C→S#${this.id} ${nodeToString(node)}`);
        if (!this.settleQuery(node)) this.enqueue(() => this.handlers.onNode(this, node));
      }
    }
  }

  private settleQuery(node: BinaryNode): boolean {
    if (node.tag !== 'iq' || (node.attrs.type !== 'result' && node.attrs.type !== 'error')) return false;
    const waiter = node.attrs.id ? this.waiters.get(node.attrs.id) : undefined;
    if (!waiter || !node.attrs.id) return false;
    this.waiters.delete(node.attrs.id);
    waiter.resolve(node);
    return true;
  }

  private enqueue(task: () => Promise<void>): void {
    this.work = this.work
      .then(task)
      .catch((error) => this.log.warn(`connection ${this.id} handler failed`, error));
  }

  private abort(error: unknown): void {
    this.log.warn(`connection ${this.id} broke; closing`, error);
    this.socket.terminate();
  }

  private closed(): void {
    if (this.state === 'closed') return;
    this.state = 'closed';
    for (const waiter of this.waiters.values()) waiter.reject(new Error('connection closed'));
    this.waiters.clear();
    this.handlers.onClose(this);
    for (const listener of this.closeListeners.splice(0)) listener();
  }
}
