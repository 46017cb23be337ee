/**
 * Signatures checked with libsignal's curve directly (Baileys' `Curve.verify` ignores the verdict): the Noise
 * cert chain, and the ADV identities exchanged at pairing, produced on the client side by Baileys' own code.
 */
import { type BinaryNode, configureSuccessfulPairing, initAuthCreds, proto } from '@whiskeysockets/baileys';
import * as curve from 'libsignal/src/curve.js';
import { child, makeNode } from '#tests/wa-sim/transport/binary.js';
import { issueDeviceIdentity, verifyAccountSignature, verifyDeviceSignature } from './adv.js';
import { createCertChain, verifyCertChain } from './cert-chain.js';
import { generateKeyPair, withKeyType } from './crypto.js';

const libsignalVerify = (publicKey: Uint8Array, message: Uint8Array, signature: Uint8Array): boolean =>
  curve.verifySignature(withKeyType(publicKey), Buffer.from(message), Buffer.from(signature));

function flipByte(bytes: Uint8Array, index = 0): Buffer {
  const copy = Buffer.from(bytes);
  copy[index] = (copy[index] ?? 0) ^ 0xff;
  return copy;
}

describe('Noise cert chain', () => {
  const root = generateKeyPair();
  const leaf = generateKeyPair();
  const { encoded } = createCertChain(root, leaf.public);
  const chain = proto.CertChain.decode(encoded);
  const intermediate = chain.intermediate;
  const leafCert = chain.leaf;
  if (!intermediate?.details || !intermediate.signature || !leafCert?.details || !leafCert.signature) {
    throw new Error('chain is missing certificates');
  }
  const intermediateDetails = proto.CertChain.NoiseCertificate.Details.decode(intermediate.details);

  it('has the intermediate signed by the root, issued under serial 0', () => {
    expect(
      libsignalVerify(
        root.public,
        intermediate.details ?? Buffer.alloc(0),
        intermediate.signature ?? Buffer.alloc(0),
      ),
    ).toBe(true);
    expect(intermediateDetails.issuerSerial ?? 0).toBe(0);
  });

  it('has the leaf, certifying the server static key, signed by the intermediate', () => {
    const leafDetails = proto.CertChain.NoiseCertificate.Details.decode(leafCert.details ?? Buffer.alloc(0));
    expect(Buffer.from(leafDetails.key ?? []).equals(leaf.public)).toBe(true);
    expect(
      libsignalVerify(
        intermediateDetails.key ?? Buffer.alloc(32),
        leafCert.details ?? Buffer.alloc(0),
        leafCert.signature ?? Buffer.alloc(0),
      ),
    ).toBe(true);
    expect(verifyCertChain(encoded, root.public, leaf.public)).toEqual({ ok: true });
  });

  it('fails under another root key, a tampered signature or another leaf key', () => {
    expect(verifyCertChain(encoded, generateKeyPair().public)).toEqual({
      ok: false,
      reason: 'intermediate signature invalid',
    });
    const tampered = proto.CertChain.encode({
      intermediate,
      leaf: { details: leafCert.details, signature: flipByte(leafCert.signature ?? Buffer.alloc(64), 10) },
    }).finish();
    expect(verifyCertChain(tampered, root.public)).toEqual({ ok: false, reason: 'leaf signature invalid' });
    expect(verifyCertChain(encoded, root.public, generateKeyPair().public)).toEqual({
      ok: false,
      reason: 'leaf key mismatch',
    });
  });
});

describe('ADV device identity at pairing', () => {
  const phone = generateKeyPair();
  const creds = initAuthCreds();
  const advSecret = Buffer.from(creds.advSecretKey, 'base64');
  const issued = issueDeviceIdentity(phone, creds.signedIdentityKey.public, 1, advSecret);
  const pairSuccess = makeNode('iq', { id: 'pair-1', type: 'set', xmlns: 'md' }, [
    makeNode('pair-success', {}, [
      makeNode('device-identity', {}, issued.container),
      makeNode('platform', { name: 'android' }),
      makeNode('device', { jid: '15550000000:1@s.whatsapp.net', lid: '100000000000001:1@lid' }),
    ]),
  ]);
  // The real client's answer: Baileys checks the HMAC and countersigns with the companion identity.
  const { reply } = configureSuccessfulPairing(pairSuccess, creds);
  const signed = child(child(reply as BinaryNode, 'pair-device-sign'), 'device-identity')?.content;
  if (!(signed instanceof Uint8Array)) throw new Error('pair-device-sign carries no identity');
  const companion = creds.signedIdentityKey.public;

  it('carries an account signature by the phone over the details and the companion key', () => {
    const identity = proto.ADVSignedDeviceIdentity.decode(signed);
    const message = Buffer.concat([Buffer.from([6, 0]), identity.details ?? Buffer.alloc(0), companion]);
    expect(libsignalVerify(phone.public, message, identity.accountSignature ?? Buffer.alloc(64))).toBe(true);
    expect(verifyAccountSignature(signed, companion, phone.public)).toBe(true);
  });

  it('verifies the device signature from pair-device-sign', () => {
    const identity = proto.ADVSignedDeviceIdentity.decode(signed);
    const message = Buffer.concat([
      Buffer.from([6, 1]),
      identity.details ?? Buffer.alloc(0),
      companion,
      phone.public,
    ]);
    expect(libsignalVerify(companion, message, identity.deviceSignature ?? Buffer.alloc(64))).toBe(true);
    expect(verifyDeviceSignature(signed, issued.details, companion, phone.public)).toBe(true);
  });

  it('rejects a tampered device signature, other details or another account key', () => {
    const identity = proto.ADVSignedDeviceIdentity.decode(signed);
    const badSignature = proto.ADVSignedDeviceIdentity.encode({
      ...identity,
      deviceSignature: flipByte(identity.deviceSignature ?? Buffer.alloc(64), 5),
    }).finish();
    expect(verifyDeviceSignature(badSignature, issued.details, companion, phone.public)).toBe(false);
    expect(verifyDeviceSignature(signed, flipByte(issued.details, 1), companion, phone.public)).toBe(false);
    expect(verifyDeviceSignature(signed, issued.details, companion, generateKeyPair().public)).toBe(false);
  });

  it('makes the client refuse a pair-success sealed with another ADV secret', () => {
    const forged = issueDeviceIdentity(phone, companion, 1, Buffer.alloc(32, 7));
    const stanza = makeNode('iq', { id: 'pair-2', type: 'set', xmlns: 'md' }, [
      makeNode('pair-success', {}, [
        makeNode('device-identity', {}, forged.container),
        makeNode('device', { jid: '15550000000:1@s.whatsapp.net', lid: '100000000000001:1@lid' }),
      ]),
    ]);
    expect(() => configureSuccessfulPairing(stanza, creds)).toThrow(/Invalid account signature/);
  });
});
