/**
 * ADV device identities: the primary phone vouches for a new companion (account signature over the device
 * details and the companion's identity key, wrapped in an HMAC keyed by the link's ADV secret), and the
 * companion countersigns (device signature) in its `pair-device-sign` reply. Checked with a real XEdDSA verify.
 */
import { randomInt } from 'node:crypto';
import { proto } from '@whiskeysockets/baileys';
import { hmacSha256, type KeyPair, sign, verify } from './crypto.js';

const ACCOUNT_SIGNATURE_PREFIX = Buffer.from([6, 0]);
const DEVICE_SIGNATURE_PREFIX = Buffer.from([6, 1]);

/** What the phone issues for a companion: the HMAC container for `pair-success` and the signed details. */
export interface IssuedIdentity {
  readonly container: Buffer;
  readonly details: Buffer;
}

/** Signs the device details for `companionIdentity` with the phone's identity and seals them with the ADV secret. */
export function issueDeviceIdentity(
  phoneIdentity: KeyPair,
  companionIdentity: Uint8Array,
  keyIndex: number,
  advSecret: Uint8Array,
): IssuedIdentity {
  const details = Buffer.from(
    proto.ADVDeviceIdentity.encode({
      rawId: randomInt(1, 2 ** 31),
      timestamp: Math.floor(Date.now() / 1000),
      keyIndex,
    }).finish(),
  );
  const accountSignature = sign(
    phoneIdentity.private,
    Buffer.concat([ACCOUNT_SIGNATURE_PREFIX, details, companionIdentity]),
  );
  const signed = Buffer.from(
    proto.ADVSignedDeviceIdentity.encode({
      details,
      accountSignatureKey: phoneIdentity.public,
      accountSignature,
    }).finish(),
  );
  const container = proto.ADVSignedDeviceIdentityHMAC.encode({
    details: signed,
    hmac: hmacSha256(advSecret, signed),
  }).finish();
  return { container: Buffer.from(container), details };
}

/** True when `signedIdentity` carries a valid account signature by `accountKey` for `companionIdentity`. */
export function verifyAccountSignature(
  signedIdentity: Uint8Array,
  companionIdentity: Uint8Array,
  accountKey: Uint8Array,
): boolean {
  const identity = proto.ADVSignedDeviceIdentity.decode(signedIdentity);
  if (!identity.details || !identity.accountSignature) return false;
  const message = Buffer.concat([ACCOUNT_SIGNATURE_PREFIX, identity.details, companionIdentity]);
  return verify(accountKey, message, identity.accountSignature);
}

/**
 * Checks the companion's `pair-device-sign` identity: the details must be the ones issued and the device
 * signature must verify under the companion's identity key.
 */
export function verifyDeviceSignature(
  signedIdentity: Uint8Array,
  issuedDetails: Uint8Array,
  companionIdentity: Uint8Array,
  accountKey: Uint8Array,
): boolean {
  const identity = proto.ADVSignedDeviceIdentity.decode(signedIdentity);
  if (!identity.details || !identity.deviceSignature) return false;
  if (!Buffer.from(identity.details).equals(Buffer.from(issuedDetails))) return false;
  const message = Buffer.concat([DEVICE_SIGNATURE_PREFIX, identity.details, companionIdentity, accountKey]);
  return verify(companionIdentity, message, identity.deviceSignature);
}
