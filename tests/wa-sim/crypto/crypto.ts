/**
 * Curve25519/XEdDSA and symmetric primitives, on libsignal's curve and node:crypto.
 * Signature checks go through libsignal's `verifySignature` directly: Baileys' `Curve.verify` ignores its result.
 */
import {
  createCipheriv,
  createDecipheriv,
  createHash,
  createHmac,
  hkdfSync,
  type KeyObject,
  pbkdf2,
} from 'node:crypto';
import * as curve from 'libsignal/src/curve.js';

/** A key pair with the raw 32-byte public key (no 0x05 type prefix), as WhatsApp puts keys on the wire. */
export interface KeyPair {
  readonly public: Buffer;
  readonly private: Buffer;
}

const KEY_TYPE = Buffer.from([5]);

/** Prefixes a raw public key with the key-type byte libsignal expects (33 bytes). */
export function withKeyType(publicKey: Uint8Array): Buffer {
  return publicKey.length === 33 ? Buffer.from(publicKey) : Buffer.concat([KEY_TYPE, publicKey]);
}

/** Strips the key-type byte, giving the 32-byte wire form. */
export function withoutKeyType(publicKey: Uint8Array): Buffer {
  return Buffer.from(publicKey.length === 33 ? publicKey.subarray(1) : publicKey);
}

/** A fresh Curve25519 key pair. */
export function generateKeyPair(): KeyPair {
  const pair = curve.generateKeyPair();
  return { public: withoutKeyType(pair.pubKey), private: Buffer.from(pair.privKey) };
}

/** X25519 agreement between our private key and their (32- or 33-byte) public key. */
export function sharedKey(privateKey: Buffer, publicKey: Uint8Array): Buffer {
  return Buffer.from(curve.calculateAgreement(withKeyType(publicKey), privateKey));
}

/** XEdDSA signature of `message` with a Curve25519 private key. */
export function sign(privateKey: Buffer, message: Uint8Array): Buffer {
  return Buffer.from(curve.calculateSignature(privateKey, Buffer.from(message)));
}

/** True only when `signature` is a valid XEdDSA signature of `message` by `publicKey`; never throws. */
export function verify(publicKey: Uint8Array, message: Uint8Array, signature: Uint8Array): boolean {
  try {
    return (
      curve.verifySignature(withKeyType(publicKey), Buffer.from(message), Buffer.from(signature)) === true
    );
  } catch {
    return false;
  }
}

/** SHA-256 digest. */
export function sha256(data: Uint8Array): Buffer {
  return createHash('sha256').update(data).digest();
}

/** HMAC-SHA256. */
export function hmacSha256(key: Uint8Array, data: Uint8Array): Buffer {
  return createHmac('sha256', key).update(data).digest();
}

/** HKDF-SHA256; an empty salt is the RFC 5869 zero salt, as in Baileys. */
export function hkdf(ikm: Uint8Array, length: number, salt: Uint8Array = Buffer.alloc(0), info = ''): Buffer {
  return Buffer.from(hkdfSync('sha256', ikm, salt, Buffer.from(info), length));
}

/** AES-256-GCM encryption with the tag appended. */
export function aesGcmEncrypt(
  key: Uint8Array | KeyObject,
  iv: Uint8Array,
  plaintext: Uint8Array,
  aad: Uint8Array,
): Buffer {
  const cipher = createCipheriv('aes-256-gcm', key, iv);
  cipher.setAAD(aad);
  return Buffer.concat([cipher.update(plaintext), cipher.final(), cipher.getAuthTag()]);
}

/** AES-256-GCM decryption of `ciphertext ‖ tag`; throws when the tag does not verify. */
export function aesGcmDecrypt(
  key: Uint8Array | KeyObject,
  iv: Uint8Array,
  sealed: Uint8Array,
  aad: Uint8Array,
): Buffer {
  const tagStart = sealed.length - 16;
  const decipher = createDecipheriv('aes-256-gcm', key, iv);
  decipher.setAAD(aad);
  decipher.setAuthTag(sealed.subarray(tagStart));
  return Buffer.concat([decipher.update(sealed.subarray(0, tagStart)), decipher.final()]);
}

/** AES-256-CTR (the same call encrypts and decrypts). */
export function aesCtr(key: Uint8Array, iv: Uint8Array, data: Uint8Array): Buffer {
  const cipher = createCipheriv('aes-256-ctr', key, iv);
  return Buffer.concat([cipher.update(data), cipher.final()]);
}

/** The pairing-code wrapping key: PBKDF2-SHA256, 131072 rounds, off the event loop. */
export function derivePairingCodeKey(code: string, salt: Uint8Array): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    pbkdf2(Buffer.from(code), salt, 2 << 16, 32, 'sha256', (error, key) =>
      error ? reject(error) : resolve(key),
    );
  });
}
