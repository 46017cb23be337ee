/**
 * Linked accounts and their devices: the account (phone number, LID, push name, the simulated primary phone)
 * and each companion the real client linked (noise key, identity, registration id, signed pre-key, uploaded
 * one-time pre-keys), with its live connection and offline queue. The records the account's behaviours keep
 * (restriction, held logouts, connection counters) are declared here too, so every module of the simulator
 * can name an account without importing those behaviours.
 */
import { randomBytes, randomInt } from 'node:crypto';
import type { ReachoutTimelockEnforcementType } from '@whiskeysockets/baileys';
import { SignalDevice } from '#tests/wa-sim/crypto/signal-device.js';
import type { BinaryNode } from '#tests/wa-sim/transport/binary.js';
import type { SimConnection } from '#tests/wa-sim/transport/connection.js';
import type { IdAllocator } from './ids.js';

/** A client connection, once logged in as one of the companions below. */
export type ClientConnection = SimConnection<CompanionDevice>;

/** A signed pre-key as the companion published it (32-byte public key). */
export interface SignedPreKey {
  readonly keyId: number;
  readonly publicKey: Buffer;
  readonly signature: Buffer;
}

/** What a companion presents when it registers (from `ClientPayload.devicePairingData`). */
export interface CompanionKeys {
  readonly noisePublic: Buffer;
  readonly identityPublic: Buffer;
  readonly registrationId: number;
  readonly signedPreKey: SignedPreKey;
  readonly platform: string;
}

/** A linked companion device (a real client such as Baileys). */
export interface CompanionDevice extends Omit<CompanionKeys, 'signedPreKey'> {
  /** Replaced when the client rotates it or re-uploads its keys. */
  signedPreKey: SignedPreKey;
  readonly account: Account;
  readonly deviceId: number;
  readonly keyIndex: number;
  readonly linkedAt: number;
  /** One-time pre-keys uploaded by the client, by id; each bundle handed out consumes one. */
  readonly preKeys: Map<number, Buffer>;
  /** Nodes addressed to the device while it had no connection, delivered at its next login. */
  readonly offline: BinaryNode[];
  /**
   * Messages sent to one of its connections that the device has not acknowledged yet (receipt or ack), by id: if
   * that connection ends first, they are delivered again (`Simulator.detach`), as WhatsApp keeps a message until
   * the device confirms it.
   */
  readonly unacked: Map<string, { node: BinaryNode; connection: ClientConnection }>;
  /** Live authenticated connections; more than one only during a replacement. */
  readonly connections: Set<ClientConnection>;
  connection: ClientConnection | undefined;
  /** How this device's logins overlapped, since it was linked or since the last reset (`connection-stats.ts`). */
  readonly connectionStats: ConnectionStats;
  loggedOut: boolean;
  /** Set once the client acknowledged the phone's post-link history notification. */
  initialSyncDone: boolean;
  /** Set while a pre-key-low notification is outstanding, so one is not sent per consumed key. */
  preKeyLowSent: boolean;
}

/** How a device's logins overlapped (`connection-stats.ts` counts them). */
export interface ConnectionStats {
  /** Successful logins. */
  logins: number;
  /** The most connections of the device that were open at the same time. */
  maxLiveConnections: number;
  /** Logins that found an older connection of the device still open (and replaced it). */
  replacedConnections: number;
}

/** An active restriction (`restriction.ts`): when it ends (unix seconds; informative, it lasts until lifted), its type. */
export interface AccountRestriction {
  readonly endsAt: number;
  readonly enforcementType: ReachoutTimelockEnforcementType;
}

/** A logout iq the server swallowed while the account's logouts were held (`client-logout.ts`). */
export interface HeldLogout {
  readonly connection: ClientConnection;
  readonly device: CompanionDevice;
  readonly iq: BinaryNode;
}

/** A user the account blocked: WhatsApp keys blocklists by LID since it moved users to LIDs (`blocklist.ts`). */
export interface BlockedUser {
  readonly phone: string;
  readonly lid: string;
  /** Unix seconds. */
  readonly blockedAt: number;
}

/** The account's blocklist, one for all its devices, and the hash (`dhash`) that names its current version. */
export interface Blocklist {
  /** By LID user. */
  readonly byLid: Map<string, BlockedUser>;
  dhash: string;
}

/** One app-state collection of the account as the server keeps it (`app-state.ts`). */
export interface AppStateCollection {
  /** Encoded `SyncdPatch`es, oldest first: the one at `i` is version `i + 1`. */
  readonly patches: Buffer[];
  /** The LT hash of the collection now, which the phone's next patch is MAC'd over. */
  hash: Buffer;
  /** Each live entry's value MAC, by its index MAC (base64): what a later write of the same index replaces. */
  readonly valueMacs: Map<string, Buffer>;
}

/** The key of a message as the account's phone sees it: `fromMe` for its own, `participant` the author in groups. */
export interface ChatMessageKey {
  readonly remoteJid: string;
  readonly fromMe: boolean;
  readonly id: string;
  readonly participant?: string;
}

/**
 * One chat as the account's phone shows it (`chat-state.ts`): what app-state chat actions set (archive, pin, mute,
 * read, delete, clear) and what the messages it saw did (the last one, the unread count).
 */
export interface PhoneChat {
  /** The chat's jid as the actions name it: `<number>@s.whatsapp.net`, `<id>@g.us` or `<id>@lid`. */
  readonly jid: string;
  archived: boolean;
  /** When it was pinned (epoch ms, the action's timestamp), or null. */
  pinnedAt: number | null;
  /** Muted until (epoch ms), -1 for ever, null when not muted. */
  muteEndTimestamp: number | null;
  /** Messages received since the chat was last read. */
  unreadCount: number;
  /** Marked as unread by hand (`markChatAsRead` with `read: false`). */
  markedUnread: boolean;
  /** When it was deleted (epoch ms), until a new message brings it back. */
  deletedAt: number | null;
  /** When its messages were last cleared (epoch ms). */
  clearedAt: number | null;
  /** The last message the phone saw in it (timestamp in unix seconds). */
  lastMessage: { readonly key: ChatMessageKey; readonly timestamp: number } | undefined;
}

/** A label as the account's phone shows it (`label-state.ts`): what the latest `label_edit` action wrote. */
export interface PhoneLabel {
  readonly id: string;
  name: string;
  /** WhatsApp's colour id, 0–19. */
  color: number;
  deleted: boolean;
  /** Set on WhatsApp Business' predefined labels ("New customer"…). */
  predefinedId: number | undefined;
}

/** A linked account: a phone number whose primary phone is simulated. */
export interface Account {
  readonly phone: string;
  readonly lid: string;
  pushName: string;
  /** The primary phone (device 0); its identity also signs linked devices. */
  readonly primary: SignalDevice;
  readonly companions: Map<number, CompanionDevice>;
  /** App-state sync key the phone shares with new companions. */
  readonly appStateKey: { readonly keyId: Buffer; readonly keyData: Buffer };
  readonly blocklist: Blocklist;
  /** App-state collections by name (`critical_unblock_low`…), shared by all its devices. */
  readonly appState: Map<string, AppStateCollection>;
  /** The contacts the phone has saved in its app state (`address-book.ts`): number → the name saved. */
  readonly addressBook: Map<string, string>;
  /** The phone's chats by jid (`chat-state.ts`), kept in step with its app-state chat actions. */
  readonly chats: Map<string, PhoneChat>;
  /** The phone's labels by id (`label-state.ts`), kept in step with its app-state `label_edit` actions. */
  readonly labels: Map<string, PhoneLabel>;
  /** The chats each label tags (label id → chat jids), from its `label_jid` actions. */
  readonly labelChats: Map<string, Set<string>>;
  readonly createdAt: number;
  /** Set while the server restricts the account (reachout timelock, `restriction.ts`). */
  restriction: AccountRestriction | undefined;
  /** While set, companions' own logout iqs are swallowed into `heldLogouts` (`client-logout.ts`). */
  logoutHold: boolean;
  readonly heldLogouts: HeldLogout[];
  online: boolean;
  nextDeviceId: number;
}

/** The registry of linked accounts, by phone number and by LID. */
export class AccountRegistry {
  private readonly byPhone = new Map<string, Account>();
  private readonly byLid = new Map<string, Account>();

  constructor(private readonly ids: IdAllocator) {}

  /** Every account, in creation order. */
  all(): Account[] {
    return [...this.byPhone.values()];
  }

  /** The account with this phone number. */
  get(phone: string): Account | undefined {
    return this.byPhone.get(phone);
  }

  /** The account whose phone number or LID user is `user`. */
  findByUser(user: string): Account | undefined {
    return this.byPhone.get(user) ?? this.byLid.get(user);
  }

  /** The account for `phone`, creating it (with a new LID and primary phone) on first use. */
  getOrCreate(phone: string, pushName?: string): Account {
    const existing = this.byPhone.get(phone);
    if (existing) {
      if (pushName) existing.pushName = pushName;
      return existing;
    }
    this.ids.claimPhone(phone);
    const account: Account = {
      phone,
      lid: this.ids.allocateLid(),
      pushName: pushName ?? `Sim ${phone}`,
      primary: new SignalDevice(),
      companions: new Map(),
      appStateKey: { keyId: randomBytes(6), keyData: randomBytes(32) },
      blocklist: { byLid: new Map(), dhash: '0' },
      appState: new Map(),
      addressBook: new Map(),
      chats: new Map(),
      labels: new Map(),
      labelChats: new Map(),
      createdAt: Date.now(),
      restriction: undefined,
      logoutHold: false,
      heldLogouts: [],
      online: false,
      nextDeviceId: 1,
    };
    this.byPhone.set(phone, account);
    this.byLid.set(account.lid, account);
    return account;
  }

  /** Links a new companion to `account` under the next free device id. */
  addCompanion(account: Account, keys: CompanionKeys): CompanionDevice {
    const deviceId = account.nextDeviceId++;
    const device: CompanionDevice = {
      ...keys,
      account,
      deviceId,
      keyIndex: deviceId,
      linkedAt: Math.floor(Date.now() / 1000),
      preKeys: new Map(),
      offline: [],
      unacked: new Map(),
      connections: new Set(),
      connection: undefined,
      connectionStats: { logins: 0, maxLiveConnections: 0, replacedConnections: 0 },
      loggedOut: false,
      initialSyncDone: false,
      preKeyLowSent: false,
    };
    account.companions.set(deviceId, device);
    return device;
  }

  /** The companion `phone:deviceId`, if linked (logged-out devices included). */
  companion(phone: string, deviceId: number): CompanionDevice | undefined {
    return this.byPhone.get(phone)?.companions.get(deviceId);
  }

  /** A phone number not used by any account or contact, for QR links that do not name one. */
  allocatePhone(): string {
    for (;;) {
      const phone = `1555${String(randomInt(0, 10_000_000)).padStart(7, '0')}`;
      if (!this.ids.isTaken(phone)) return phone;
    }
  }
}

/** Companions of `account` that are linked (not logged out). */
export function linkedCompanions(account: Account): CompanionDevice[] {
  return [...account.companions.values()].filter((device) => !device.loggedOut);
}
