/**
 * The primary phone's side of pairing-code linking: unwrap the companion's ephemeral key with the typed code,
 * answer with its own wrapped ephemeral key (primary_hello), then open the companion's key bundle and derive the
 * same ADV secret the companion derived (the GCM tag proves both sides used the same code).
 */
import { randomBytes } from 'node:crypto';
import type { Account } from '#tests/wa-sim/accounts/accounts.js';
import {
  aesCtr,
  aesGcmDecrypt,
  derivePairingCodeKey,
  generateKeyPair,
  hkdf,
  sharedKey,
} from '#tests/wa-sim/crypto/crypto.js';
import { type BinaryNode, makeNode, SERVER_JID, unixNow } from '#tests/wa-sim/transport/binary.js';
import type { LinkResult } from './types.js';

/** A pairing-code request in progress. */
export interface LinkCodeState {
  readonly phone: string;
  readonly ref: string;
  /** salt(32) ‖ iv(16) ‖ AES-CTR(companion ephemeral public key) */
  readonly wrapped: Buffer;
  /** Set once the code was entered on the phone. */
  primary: { readonly account: Account; readonly sharedKey: Buffer } | undefined;
  /** Resolves or rejects whoever entered the code. */
  settle: (error?: Error, result?: LinkResult) => void;
}

const BUNDLE_INFO = 'link_code_pairing_key_bundle_encryption_key';

/** Enters `code` on the phone: derives the shared key and builds the primary_hello notification. */
export async function wrapPrimaryHello(
  state: LinkCodeState,
  account: Account,
  code: string,
): Promise<BinaryNode> {
  const { wrapped } = state;
  const companionKey = await derivePairingCodeKey(code, wrapped.subarray(0, 32));
  const companionEphemeral = aesCtr(companionKey, wrapped.subarray(32, 48), wrapped.subarray(48, 80));
  const primaryEphemeral = generateKeyPair();
  state.primary = { account, sharedKey: sharedKey(primaryEphemeral.private, companionEphemeral) };
  const salt = randomBytes(32);
  const iv = randomBytes(16);
  const primaryKey = await derivePairingCodeKey(code, salt);
  const wrappedPrimary = Buffer.concat([salt, iv, aesCtr(primaryKey, iv, primaryEphemeral.public)]);
  const id = randomBytes(8).toString('hex');
  return makeNode(
    'notification',
    { from: SERVER_JID, type: 'link_code_companion_reg', id, t: String(unixNow()) },
    [
      makeNode('link_code_companion_reg', { stage: 'primary_hello' }, [
        makeNode('link_code_pairing_wrapped_primary_ephemeral_pub', {}, wrappedPrimary),
        makeNode('primary_identity_pub', {}, account.primary.identityKeyPair.public),
        makeNode('link_code_pairing_ref', {}, Buffer.from(state.ref)),
      ]),
    ],
  );
}

/**
 * Opens the companion_finish key bundle (salt ‖ iv ‖ AES-GCM(companion identity ‖ primary identity ‖ random));
 * returns the ADV secret, or undefined when the bundle does not open (a wrong code) or does not echo the keys.
 */
export function acceptCompanionFinish(
  state: LinkCodeState,
  bundle: Buffer,
  companionIdentity: Buffer,
): Buffer | undefined {
  if (!state.primary || bundle.length < 44 + 16) return undefined;
  const phoneIdentity = state.primary.account.primary.identityKeyPair;
  const key = hkdf(state.primary.sharedKey, 32, bundle.subarray(0, 32), BUNDLE_INFO);
  let payload: Buffer;
  try {
    payload = aesGcmDecrypt(key, bundle.subarray(32, 44), bundle.subarray(44), Buffer.alloc(0));
  } catch {
    return undefined;
  }
  if (
    !payload.subarray(0, 32).equals(companionIdentity) ||
    !payload.subarray(32, 64).equals(phoneIdentity.public)
  ) {
    return undefined;
  }
  const identityShared = sharedKey(phoneIdentity.private, companionIdentity);
  const material = Buffer.concat([state.primary.sharedKey, identityShared, payload.subarray(64, 96)]);
  return hkdf(material, 32, Buffer.alloc(0), 'adv_secret');
}
