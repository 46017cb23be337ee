/**
 * Our patch of libsignal's curve: XEdDSA signatures (the Noise certificate chain of every connection, a contact's
 * signed pre-keys) are verified with Node's native Ed25519 instead of curve25519-js's plain JavaScript, which cost
 * about 12 ms a signature and made each reconnect of a session cost 25 ms of the host's CPU. The answers must be the
 * very ones curve25519-js gives, for good and bad signatures alike.
 */
import { randomBytes } from 'node:crypto';
import { createRequire } from 'node:module';
import { describe, expect, it, jest } from '@jest/globals';

const require = createRequire(import.meta.url);

interface Curve {
  generateKeyPair(): { pubKey: Buffer; privKey: Buffer };
  calculateSignature(privKey: Buffer, message: Buffer): Buffer;
  verifySignature(pubKey: Buffer, message: Buffer, signature: Buffer): boolean;
}
const curve = require('libsignal/src/curve.js') as Curve;
const curveJs = require('curve25519-js') as {
  verify(pubKey: Uint8Array, message: Uint8Array, signature: Uint8Array): boolean;
};

/** A signature with one bit flipped. */
function flipped(signature: Buffer, bit: number): Buffer {
  const copy = Buffer.from(signature);
  copy[Math.floor(bit / 8) % 64] = (copy[Math.floor(bit / 8) % 64] ?? 0) ^ (1 << (bit % 8));
  return copy;
}

describe('libsignal curve (patched): XEdDSA verification', () => {
  // curve25519-js, the reference, takes about a second per key's cases under jest's module sandbox: six keys.
  it('answers as curve25519-js does for good, tampered, foreign and random signatures', () => {
    const answers: [boolean, boolean][] = [];
    for (let i = 0; i < 6; i++) {
      const pair = curve.generateKeyPair();
      const message = randomBytes(1 + ((i * 37) % 300));
      const signature = curve.calculateSignature(pair.privKey, message);
      const other = curve.generateKeyPair().pubKey;
      const changed = Buffer.from(message);
      changed[0] = (changed[0] ?? 0) ^ 1;
      const cases: [Buffer, Buffer, Buffer][] = [
        [pair.pubKey, message, signature],
        [pair.pubKey, message, flipped(signature, i * 8 + (i % 8))],
        // The sign bit of the Edwards key travels in the signature's top bit.
        [pair.pubKey, message, flipped(signature, 511)],
        [pair.pubKey, changed, signature],
        [other, message, signature],
        [pair.pubKey, message, randomBytes(64)],
      ];
      for (const [key, text, sig] of cases) {
        answers.push([curve.verifySignature(key, text, sig), curveJs.verify(key.subarray(1), text, sig)]);
      }
    }
    expect(answers.filter(([patched, reference]) => patched !== reference)).toEqual([]);
    expect(answers.filter(([patched]) => patched)).toHaveLength(6);
  });

  it('verifies without curve25519-js, whose plain JavaScript is what the patch avoids', () => {
    const pair = curve.generateKeyPair();
    const message = randomBytes(120);
    const signature = curve.calculateSignature(pair.privKey, message);
    const spy = jest.spyOn(curveJs, 'verify');
    try {
      expect(curve.verifySignature(pair.pubKey, message, signature)).toBe(true);
      expect(curve.verifySignature(pair.pubKey, message, flipped(signature, 3))).toBe(false);
      expect(spy).not.toHaveBeenCalled();
    } finally {
      spy.mockRestore();
    }
  });
});
