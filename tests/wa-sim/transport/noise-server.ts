/**
 * Server side of WhatsApp's Noise_XX_25519_AESGCM_SHA256 handshake and its framing (3-byte big-endian length
 * prefix; the client's first bytes carry the `WA 06 03` intro, optionally behind an `ED` routing header).
 * Mirror image of Baileys' `makeNoiseHandler`.
 */
import { createSecretKey, type KeyObject } from 'node:crypto';
import { proto } from '@whiskeysockets/baileys';
import {
  aesGcmDecrypt,
  aesGcmEncrypt,
  generateKeyPair,
  hkdf,
  type KeyPair,
  sha256,
  sharedKey,
} from '#tests/wa-sim/crypto/crypto.js';

const NOISE_MODE = Buffer.from('Noise_XX_25519_AESGCM_SHA256\0\0\0\0');
const WA_INTRO = Buffer.from([0x57, 0x41, 6, 3]);
const EMPTY = Buffer.alloc(0);

/** What the client proved and sent in its handshake finish. */
export interface ClientHello {
  readonly clientStatic: Buffer;
  readonly payload: proto.ClientPayload;
}

function nonce(counter: number): Buffer {
  const iv = Buffer.alloc(12);
  iv.writeUInt32BE(counter >>> 0, 8);
  return iv;
}

function frame(data: Uint8Array): Buffer {
  const out = Buffer.allocUnsafe(3 + data.length);
  out.writeUIntBE(data.length, 0, 3);
  out.set(data, 3);
  return out;
}

/** One connection's Noise state: handshake first, then the transport cipher pair. */
export class NoiseServer {
  private hash: Buffer = NOISE_MODE;
  private salt: Buffer = NOISE_MODE;
  private key: Buffer = NOISE_MODE;
  private counter = 0;
  private pending: Buffer = EMPTY;
  private introSeen = false;
  private ephemeral: KeyPair | undefined;
  // KeyObjects, made once: node:crypto pays about 20 µs per cipher built from a Buffer key (Node 24.17 and later),
  // which on every frame was a quarter of the simulator's CPU in the send benchmark.
  private transport: { enc: KeyObject; dec: KeyObject; writeCount: number; readCount: number } | undefined;

  constructor(
    private readonly staticKeys: KeyPair,
    private readonly certChain: Uint8Array,
  ) {}

  /** True once the handshake finished and frames are encrypted. */
  get ready(): boolean {
    return this.transport !== undefined;
  }

  /** Feeds raw socket bytes; returns every complete frame (decrypted once the transport is up). */
  receive(data: Buffer): Buffer[] {
    this.pending = this.pending.length === 0 ? data : Buffer.concat([this.pending, data]);
    if (!this.introSeen && !this.consumeIntro()) return [];
    const frames: Buffer[] = [];
    while (this.pending.length >= 3) {
      const size = this.pending.readUIntBE(0, 3);
      if (this.pending.length < size + 3) break;
      const body = this.pending.subarray(3, size + 3);
      this.pending = this.pending.subarray(size + 3);
      frames.push(this.transport ? this.decryptTransport(body) : Buffer.from(body));
    }
    return frames;
  }

  /** Answers the client hello with our ephemeral, encrypted static key and encrypted cert chain (framed). */
  respondToHello(frameBytes: Uint8Array): Buffer {
    const { clientHello } = proto.HandshakeMessage.decode(frameBytes);
    if (!clientHello?.ephemeral) throw new Error('noise: client hello without ephemeral key');
    const clientEphemeral = Buffer.from(clientHello.ephemeral);
    this.authenticate(clientEphemeral);
    const ephemeral = generateKeyPair();
    this.ephemeral = ephemeral;
    this.authenticate(ephemeral.public);
    this.mixIntoKey(sharedKey(ephemeral.private, clientEphemeral));
    const staticCipher = this.encrypt(this.staticKeys.public);
    this.mixIntoKey(sharedKey(this.staticKeys.private, clientEphemeral));
    const payloadCipher = this.encrypt(this.certChain);
    const serverHello = { ephemeral: ephemeral.public, static: staticCipher, payload: payloadCipher };
    return frame(proto.HandshakeMessage.encode({ serverHello }).finish());
  }

  /** Reads the client finish (its static key and `ClientPayload`) and switches to transport keys. */
  acceptFinish(frameBytes: Uint8Array): ClientHello {
    const { clientFinish } = proto.HandshakeMessage.decode(frameBytes);
    if (!clientFinish?.static || !clientFinish.payload || !this.ephemeral) {
      throw new Error('noise: malformed client finish');
    }
    const clientStatic = this.decrypt(clientFinish.static);
    this.mixIntoKey(sharedKey(this.ephemeral.private, clientStatic));
    const payload = proto.ClientPayload.decode(this.decrypt(clientFinish.payload));
    const keys = hkdf(EMPTY, 64, this.salt);
    // The client encrypts with the first half and decrypts with the second; the server mirrors that.
    this.transport = {
      enc: createSecretKey(keys.subarray(32)),
      dec: createSecretKey(keys.subarray(0, 32)),
      writeCount: 0,
      readCount: 0,
    };
    return { clientStatic, payload };
  }

  /** Encrypts and frames one transport message (an encoded binary node). */
  encodeFrame(plaintext: Uint8Array): Buffer {
    if (!this.transport) throw new Error('noise: transport not ready');
    const sealed = aesGcmEncrypt(this.transport.enc, nonce(this.transport.writeCount++), plaintext, EMPTY);
    return frame(sealed);
  }

  private consumeIntro(): boolean {
    let offset = 0;
    if (this.pending[0] === 0x45 && this.pending[1] === 0x44) {
      // 'ED' 00 01 <len:3> <routing info> precedes the intro when the client has edge routing info.
      if (this.pending.length < 7) return false;
      offset = 7 + this.pending.readUIntBE(4, 3);
    }
    if (this.pending.length < offset + 4) return false;
    const intro = this.pending.subarray(offset, offset + 4);
    if (intro[0] !== WA_INTRO[0] || intro[1] !== WA_INTRO[1]) {
      throw new Error(`noise: bad intro ${intro.toString('hex')}`);
    }
    this.authenticate(intro);
    this.pending = this.pending.subarray(offset + 4);
    this.introSeen = true;
    return true;
  }

  private decryptTransport(body: Uint8Array): Buffer {
    if (!this.transport) throw new Error('noise: transport not ready');
    return aesGcmDecrypt(this.transport.dec, nonce(this.transport.readCount++), body, EMPTY);
  }

  private authenticate(data: Uint8Array): void {
    this.hash = sha256(Buffer.concat([this.hash, data]));
  }

  private mixIntoKey(material: Uint8Array): void {
    const derived = hkdf(material, 64, this.salt);
    this.salt = derived.subarray(0, 32);
    this.key = derived.subarray(32);
    this.counter = 0;
  }

  private encrypt(plaintext: Uint8Array): Buffer {
    const sealed = aesGcmEncrypt(this.key, nonce(this.counter++), plaintext, this.hash);
    this.authenticate(sealed);
    return sealed;
  }

  private decrypt(sealed: Uint8Array): Buffer {
    const plaintext = aesGcmDecrypt(this.key, nonce(this.counter++), sealed, this.hash);
    this.authenticate(sealed);
    return plaintext;
  }
}
