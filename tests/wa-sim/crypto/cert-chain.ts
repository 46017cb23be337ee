/**
 * The Noise certificate chain the server presents: root → intermediate (issuerSerial 0) → leaf (the server's
 * static key), each signed with XEdDSA. The simulator's root key stands in for WhatsApp's long-term root key;
 * clients trust it through `trustSimulatorRootKey`.
 */
import { proto } from '@whiskeysockets/baileys';
import { generateKeyPair, type KeyPair, sign, verify } from './crypto.js';

/** Serial WhatsApp's clients expect as the intermediate's issuer (`WA_CERT_DETAILS.SERIAL`). */
export const ROOT_SERIAL = 0;
const INTERMEDIATE_SERIAL = 1;
const LEAF_SERIAL = 2;
/** 2100-01-01; clients do not check dates, but real chains carry them. */
const NOT_AFTER = 4_102_444_800;

/** An encoded `proto.CertChain` and the intermediate key that signed its leaf. */
export interface CertChain {
  readonly encoded: Buffer;
  readonly intermediate: KeyPair;
}

function encodeDetails(serial: number, issuerSerial: number, key: Uint8Array): Buffer {
  const details = { serial, issuerSerial, key, notBefore: 0, notAfter: NOT_AFTER };
  return Buffer.from(proto.CertChain.NoiseCertificate.Details.encode(details).finish());
}

/** Builds a chain whose leaf certifies `leafPublic`, signed up to `root`. */
export function createCertChain(root: KeyPair, leafPublic: Uint8Array): CertChain {
  const intermediate = generateKeyPair();
  const intermediateDetails = encodeDetails(INTERMEDIATE_SERIAL, ROOT_SERIAL, intermediate.public);
  const leafDetails = encodeDetails(LEAF_SERIAL, INTERMEDIATE_SERIAL, leafPublic);
  const chain = {
    intermediate: { details: intermediateDetails, signature: sign(root.private, intermediateDetails) },
    leaf: { details: leafDetails, signature: sign(intermediate.private, leafDetails) },
  };
  return { encoded: Buffer.from(proto.CertChain.encode(chain).finish()), intermediate };
}

/** The outcome of checking a chain; `reason` says which link failed. */
export type ChainCheck = { readonly ok: true } | { readonly ok: false; readonly reason: string };

/**
 * Verifies a chain the way a strict client would: both signatures (with a real XEdDSA check), the
 * intermediate's issuer serial, and, when given, that the leaf certifies `expectedLeafKey`.
 */
export function verifyCertChain(
  encoded: Uint8Array,
  rootPublic: Uint8Array,
  expectedLeafKey?: Uint8Array,
): ChainCheck {
  const chain = proto.CertChain.decode(encoded);
  const intermediate = chain.intermediate;
  const leaf = chain.leaf;
  if (!intermediate?.details || !intermediate.signature) return { ok: false, reason: 'intermediate missing' };
  if (!leaf?.details || !leaf.signature) return { ok: false, reason: 'leaf missing' };
  const intermediateDetails = proto.CertChain.NoiseCertificate.Details.decode(intermediate.details);
  const leafDetails = proto.CertChain.NoiseCertificate.Details.decode(leaf.details);
  if (!verify(rootPublic, intermediate.details, intermediate.signature)) {
    return { ok: false, reason: 'intermediate signature invalid' };
  }
  if ((intermediateDetails.issuerSerial ?? 0) !== ROOT_SERIAL) return { ok: false, reason: 'issuer serial' };
  if (!intermediateDetails.key || !verify(intermediateDetails.key, leaf.details, leaf.signature)) {
    return { ok: false, reason: 'leaf signature invalid' };
  }
  if (
    expectedLeafKey &&
    !(leafDetails.key && Buffer.from(leafDetails.key).equals(Buffer.from(expectedLeafKey)))
  ) {
    return { ok: false, reason: 'leaf key mismatch' };
  }
  return { ok: true };
}
