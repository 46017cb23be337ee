/**
 * A simulated WhatsApp device (a primary phone or a contact's phone) with real Signal keys, on the `libsignal`
 * package directly: its identity, signed pre-key and one-time pre-keys, 1:1 sessions (SessionBuilder /
 * SessionCipher over an in-memory store) and group sender keys (Baileys' sender-key implementation, which
 * libsignal lacks). Session records stay live objects in memory, so a message costs no key parsing.
 */
import { randomInt } from 'node:crypto';
import {
  GroupCipher,
  GroupSessionBuilder,
  SenderKeyDistributionMessage,
  SenderKeyName,
  SenderKeyRecord,
} from '@whiskeysockets/baileys/lib/Signal/Group/index.js';
import * as libsignal from 'libsignal';
import * as curve from 'libsignal/src/curve.js';
import { withKeyType, withoutKeyType } from './crypto.js';

/** A pre-key bundle in wire form (32-byte keys), as served by `iq xmlns=encrypt <key>`. */
export interface PreKeyBundle {
  readonly registrationId: number;
  readonly identityKey: Buffer;
  readonly signedPreKey: { readonly keyId: number; readonly publicKey: Buffer; readonly signature: Buffer };
  readonly preKey?: { readonly keyId: number; readonly publicKey: Buffer };
}

/** Who a session or sender key belongs to: a user (phone number) and a device id. */
export interface DeviceAddress {
  readonly user: string;
  readonly device: number;
}

/** Signal message type on the wire. */
export type CipherType = 'pkmsg' | 'msg';

interface LibsignalKeyPair {
  pubKey: Buffer;
  privKey: Buffer;
}

/** The device shape libsignal's `initOutgoing` accepts at runtime; its typings wrongly require a pre-key. */
interface OutgoingDevice {
  registrationId: number;
  identityKey: Buffer;
  signedPreKey: { keyId: number; publicKey: Buffer; signature: Buffer };
  preKey?: { keyId: number; publicKey: Buffer };
}

const SIGNED_PRE_KEY_ID = 1;

function newKeyPair(): LibsignalKeyPair {
  const pair = curve.generateKeyPair();
  return { pubKey: Buffer.from(pair.pubKey), privKey: Buffer.from(pair.privKey) };
}

function toAddress(address: DeviceAddress): libsignal.ProtocolAddress {
  return new libsignal.ProtocolAddress(address.user, address.device);
}

/** One simulated device's Signal state and operations. */
export class SignalDevice {
  readonly registrationId = randomInt(1, 16_380);
  private readonly identity = newKeyPair();
  private readonly signedPreKey = newKeyPair();
  private readonly signedPreKeySignature = Buffer.from(
    curve.calculateSignature(this.identity.privKey, this.signedPreKey.pubKey),
  );
  private readonly preKeys = new Map<number, LibsignalKeyPair>();
  private nextPreKeyId = 1;
  private readonly sessions = new Map<string, libsignal.SessionRecord>();
  private readonly ciphers = new Map<string, libsignal.SessionCipher>();
  private readonly senderKeys = new Map<string, SenderKeyRecord>();
  private readonly storage: libsignal.SignalStorage = {
    loadSession: async (id) => this.sessions.get(id),
    storeSession: async (id, record) => {
      this.sessions.set(id, record);
    },
    // Trust on first use, as WhatsApp clients do; identity changes are not simulated.
    isTrustedIdentity: () => true,
    loadPreKey: async (id) => this.preKeys.get(Number(id)),
    removePreKey: (id) => {
      this.preKeys.delete(Number(id));
    },
    loadSignedPreKey: () => this.signedPreKey,
    getOurRegistrationId: () => this.registrationId,
    getOurIdentity: () => this.identity,
  };
  private readonly senderKeyStore = {
    loadSenderKey: async (name: SenderKeyName) =>
      this.senderKeys.get(name.toString()) ?? new SenderKeyRecord(),
    storeSenderKey: async (name: SenderKeyName, record: SenderKeyRecord) => {
      this.senderKeys.set(name.toString(), record);
    },
  };

  /** The identity key pair in wire form; the phone's one also signs linked devices (ADV account key). */
  get identityKeyPair(): { public: Buffer; private: Buffer } {
    return { public: withoutKeyType(this.identity.pubKey), private: this.identity.privKey };
  }

  /** A bundle with a fresh one-time pre-key, as the server hands out for this device. */
  createBundle(): PreKeyBundle {
    const keyId = this.nextPreKeyId++;
    const preKey = newKeyPair();
    this.preKeys.set(keyId, preKey);
    return {
      registrationId: this.registrationId,
      identityKey: withoutKeyType(this.identity.pubKey),
      signedPreKey: {
        keyId: SIGNED_PRE_KEY_ID,
        publicKey: withoutKeyType(this.signedPreKey.pubKey),
        signature: this.signedPreKeySignature,
      },
      preKey: { keyId, publicKey: withoutKeyType(preKey.pubKey) },
    };
  }

  /** True when an open session with `address` exists. */
  hasSession(address: DeviceAddress): boolean {
    return this.sessions.get(toAddress(address).toString())?.haveOpenSession() === true;
  }

  /** Starts an outgoing session from the remote device's bundle (the one-time pre-key may be absent). */
  async startSession(address: DeviceAddress, bundle: PreKeyBundle): Promise<void> {
    const device: OutgoingDevice = {
      registrationId: bundle.registrationId,
      identityKey: withKeyType(bundle.identityKey),
      signedPreKey: {
        keyId: bundle.signedPreKey.keyId,
        publicKey: withKeyType(bundle.signedPreKey.publicKey),
        signature: bundle.signedPreKey.signature,
      },
      preKey: bundle.preKey && {
        keyId: bundle.preKey.keyId,
        publicKey: withKeyType(bundle.preKey.publicKey),
      },
    };
    const builder = new libsignal.SessionBuilder(this.storage, toAddress(address)) as unknown as {
      initOutgoing(device: OutgoingDevice): Promise<void>;
    };
    await builder.initOutgoing(device);
  }

  /** Encrypts padded message bytes for `address`; `pkmsg` until the remote answers. */
  async encrypt(
    address: DeviceAddress,
    padded: Uint8Array,
  ): Promise<{ type: CipherType; ciphertext: Buffer }> {
    const result = await this.cipher(address).encrypt(Buffer.from(padded));
    const body: unknown = result.body;
    const ciphertext = Buffer.isBuffer(body) ? body : Buffer.from(String(body), 'binary');
    return { type: result.type === 3 ? 'pkmsg' : 'msg', ciphertext };
  }

  /** Decrypts a `pkmsg` or `msg` from `address`, giving the padded plaintext. */
  decrypt(address: DeviceAddress, type: CipherType, ciphertext: Uint8Array): Promise<Buffer> {
    const cipher = this.cipher(address);
    const bytes = Buffer.from(ciphertext);
    return type === 'pkmsg' ? cipher.decryptPreKeyWhisperMessage(bytes) : cipher.decryptWhisperMessage(bytes);
  }

  /** Stores a sender's group key from a SenderKeyDistributionMessage. */
  async processSenderKeyDistribution(
    groupJid: string,
    sender: DeviceAddress,
    skdm: Uint8Array,
  ): Promise<void> {
    const message = new SenderKeyDistributionMessage(null, null, null, null, skdm);
    await new GroupSessionBuilder(this.senderKeyStore).process(this.senderName(groupJid, sender), message);
  }

  /** Decrypts a group `skmsg` from `sender`, giving the padded plaintext. */
  async decryptGroup(groupJid: string, sender: DeviceAddress, ciphertext: Uint8Array): Promise<Buffer> {
    const cipher = new GroupCipher(this.senderKeyStore, this.senderName(groupJid, sender));
    return Buffer.from(await cipher.decrypt(ciphertext));
  }

  /** Encrypts padded bytes with our sender key for the group; also returns our distribution message. */
  async encryptGroup(
    groupJid: string,
    self: DeviceAddress,
    padded: Uint8Array,
  ): Promise<{ ciphertext: Buffer; distribution: Buffer }> {
    const name = this.senderName(groupJid, self);
    const distribution = await new GroupSessionBuilder(this.senderKeyStore).create(name);
    const ciphertext = await new GroupCipher(this.senderKeyStore, name).encrypt(padded);
    return { ciphertext: Buffer.from(ciphertext), distribution: Buffer.from(distribution.serialize()) };
  }

  private senderName(groupJid: string, sender: DeviceAddress): SenderKeyName {
    return new SenderKeyName(groupJid, toAddress(sender));
  }

  private cipher(address: DeviceAddress): libsignal.SessionCipher {
    const key = `${address.user}.${address.device}`;
    let cipher = this.ciphers.get(key);
    if (!cipher) {
      cipher = new libsignal.SessionCipher(this.storage, toAddress(address));
      this.ciphers.set(key, cipher);
    }
    return cipher;
  }
}
