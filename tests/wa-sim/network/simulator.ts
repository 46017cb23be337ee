/**
 * The simulated WhatsApp network: registries (accounts, contacts, groups), the server identity (root key,
 * static key, cert chain), the media store, live connections, and delivery to companions, online or queued. Every handler works
 * on it; which handler a client node goes to is `dispatch.ts`'s business, so this module imports none of them.
 */
import { randomBytes } from 'node:crypto';
import {
  type Account,
  AccountRegistry,
  type ClientConnection,
  type CompanionDevice,
  linkedCompanions,
} from '#tests/wa-sim/accounts/accounts.js';
import { ContactRegistry } from '#tests/wa-sim/accounts/contacts.js';
import { Directory } from '#tests/wa-sim/accounts/directory.js';
import { IdAllocator } from '#tests/wa-sim/accounts/ids.js';
import { createCertChain } from '#tests/wa-sim/crypto/cert-chain.js';
import { generateKeyPair } from '#tests/wa-sim/crypto/crypto.js';
import { GroupRegistry } from '#tests/wa-sim/groups/groups.js';
import { Pairing } from '#tests/wa-sim/linking/pairing.js';
import { MediaStore } from '#tests/wa-sim/media/media-store.js';
import { CallRegistry } from '#tests/wa-sim/messaging/call-registry.js';
import { PresenceBoard } from '#tests/wa-sim/messaging/presence-board.js';
import { ReceiptWaiters } from '#tests/wa-sim/messaging/receipt-waiters.js';
import type { SimLogger } from '#tests/wa-sim/support/log.js';
import type { BinaryNode } from '#tests/wa-sim/transport/binary.js';

/** Nodes kept for an offline companion; a device that never returns must not grow the heap without end. */
const OFFLINE_QUEUE_LIMIT = 10_000;

/** How the server treats new WebSocket connections (for reconnect tests). */
export interface ConnectionPolicy {
  mode: 'accept' | 'refuse' | 'delay';
  delayMs: number;
}

/** Counters for load runs and health checks. */
export interface SimStats {
  messagesFromClients: number;
  decryptedByContacts: number;
  decryptFailures: number;
  /** Trusted-contact tokens the clients issued (privacy `set` iqs with `<tokens>`): once per contact and period. */
  privacyTokensIssued: number;
  /**
   * When a contact last decrypted a message (epoch ms; 0 before the first): a load run's end is read here rather than
   * when a poll of `/health` first sees the count, which would add the poller's own delay.
   */
  lastDecryptedAtMs: number;
}

/** The whole simulated network behind one server. */
export class Simulator {
  readonly ids = new IdAllocator();
  readonly accounts = new AccountRegistry(this.ids);
  readonly contacts = new ContactRegistry(this.ids);
  readonly directory = new Directory(this.accounts, this.contacts);
  readonly groups = new GroupRegistry();
  readonly rootKeys = generateKeyPair();
  readonly staticKeys = generateKeyPair();
  readonly certChain = createCertChain(this.rootKeys, this.staticKeys.public).encoded;
  readonly connections = new Set<ClientConnection>();
  readonly pairing: Pairing;
  readonly receipts = new ReceiptWaiters();
  readonly presence = new PresenceBoard();
  readonly calls = new CallRegistry();
  /** The media host's blobs and upload tokens. */
  readonly media: MediaStore;
  readonly stats: SimStats = {
    messagesFromClients: 0,
    decryptedByContacts: 0,
    decryptFailures: 0,
    privacyTokensIssued: 0,
    lastDecryptedAtMs: 0,
  };
  policy: ConnectionPolicy = { mode: 'accept', delayMs: 0 };
  /** Base URL of the HTTP side (admin API, picture files), set once the server listens. */
  httpBase = '';
  private readonly warned = new Set<string>();
  private messageCounter = 0;

  constructor(
    readonly log: SimLogger,
    mediaStoreBytes?: number,
  ) {
    this.pairing = new Pairing(this.accounts, log);
    this.media = new MediaStore(mediaStoreBytes);
  }

  /** A fresh message id in the style clients generate. */
  newMessageId(): string {
    this.messageCounter = (this.messageCounter + 1) % 0xffff;
    return `3EB0${randomBytes(8).toString('hex').toUpperCase()}${this.messageCounter.toString(16).toUpperCase()}`;
  }

  /** Sends to a companion now, or queues the node for its next login (the oldest are dropped past a bound). */
  deliver(device: CompanionDevice, node: BinaryNode): void {
    if (device.loggedOut) return;
    if (device.connection?.isOpen) {
      this.send(device, device.connection, node);
      return;
    }
    device.offline.push(node);
    if (device.offline.length > OFFLINE_QUEUE_LIMIT) {
      device.offline.shift();
      this.warnOnce(
        `offline:${device.account.phone}:${device.deviceId}`,
        `offline queue of ${device.account.phone}:${device.deviceId} is full; dropping the oldest`,
      );
    }
  }

  /** Sends `node` on the device's `connection`; a message stays unacknowledged until the device confirms it. */
  send(device: CompanionDevice, connection: ClientConnection, node: BinaryNode): void {
    connection.send(node);
    if (node.tag === 'message' && node.attrs.id) device.unacked.set(node.attrs.id, { node, connection });
  }

  /** The device confirmed the message `id` (a receipt or an ack): it is no longer the server's to deliver. */
  acknowledged(device: CompanionDevice, id: string): void {
    device.unacked.delete(id);
  }

  /** Delivers to every linked companion of `account`, except `skip`. */
  deliverToAccount(account: Account, node: BinaryNode, skip?: CompanionDevice): void {
    for (const device of linkedCompanions(account)) if (device !== skip) this.deliver(device, node);
  }

  /** Logs a warning only the first time `key` is seen (unhandled iq namespaces and the like). */
  warnOnce(key: string, message: string): void {
    if (this.warned.has(key)) return;
    this.warned.add(key);
    this.log.warn(message);
  }

  /** Closes every connection. */
  closeAll(): void {
    for (const connection of this.connections) connection.terminate();
  }

  /** Forgets a closed connection; what it never confirmed goes out again (`deliver`). */
  detach(connection: ClientConnection): void {
    this.connections.delete(connection);
    this.pairing.forget(connection);
    const device = connection.device;
    if (!device) return;
    device.connections.delete(connection);
    if (device.connection === connection) device.connection = undefined;
    // Presence subscriptions belong to a connection: the device must subscribe again on its next one.
    if (device.connections.size === 0) this.presence.unsubscribeAll(device);
    // Messages this connection never confirmed go out again: on the device's live connection, or at its next login.
    for (const [id, sent] of [...device.unacked]) {
      if (sent.connection !== connection) continue;
      device.unacked.delete(id);
      this.deliver(device, sent.node);
    }
    if (![...device.account.companions.values()].some((companion) => companion.connection)) {
      device.account.online = false;
    }
    this.log.info(`connection ${connection.id} of ${device.account.phone}:${device.deviceId} closed`);
  }
}
