/**
 * App-state ("syncd") cryptography, as a primary phone writes a patch its companions decrypt and opens the patches they
 * upload: the five mutation keys expanded from the shared app-state sync key, each mutation's encrypted value and
 * MACs, the LT hash that sums a collection's entries, and the snapshot and patch MACs over a version. Companions
 * check the MACs when their `appStateMacVerification` asks them to; the phone always checks theirs.
 */
import { createCipheriv, createDecipheriv, createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { proto } from '@whiskeysockets/baileys';
import { hkdf, hmacSha256 } from './crypto.js';

/** The keys one app-state sync key expands to. */
export interface MutationKeys {
  readonly index: Buffer;
  readonly valueEncryption: Buffer;
  readonly valueMac: Buffer;
  readonly snapshotMac: Buffer;
  readonly patchMac: Buffer;
}

/** One encrypted mutation: its record and the value MAC the hashes are built from. */
export interface SealedMutation {
  readonly mutation: proto.ISyncdMutation;
  readonly indexMac: Buffer;
  readonly valueMac: Buffer;
}

/** What a mutation says: its index (`["contact", "<jid>"]`…), its value and the action's API version. */
export interface MutationContent {
  readonly operation: proto.SyncdMutation.SyncdOperation;
  readonly index: readonly string[];
  readonly value: proto.ISyncActionValue;
  readonly apiVersion: number;
}

/** A mutation a companion uploaded, opened: what it says, and the MACs the collection's hashes are built from. */
export interface OpenedMutation extends MutationContent {
  readonly indexMac: Buffer;
  readonly valueMac: Buffer;
}

/** A collection's running state: its LT hash and each live entry's value MAC by index MAC (base64). */
export interface LtHashState {
  hash: Buffer;
  readonly valueMacs: Map<string, Buffer>;
}

/** A mutation the phone refuses: its key is not the account's, or a MAC or the encryption does not hold. */
export class MutationRejected extends Error {
  override readonly name = 'MutationRejected';
}

/** The LT hash of an empty collection. */
export const EMPTY_LT_HASH = Buffer.alloc(128);

const KEY_LENGTH = 32;
const LT_HASH_INFO = 'WhatsApp Patch Integrity';

/** Expands an app-state sync key (`keyData`) into its mutation keys. */
export function mutationKeys(keyData: Uint8Array): MutationKeys {
  const expanded = hkdf(keyData, 5 * KEY_LENGTH, Buffer.alloc(0), 'WhatsApp Mutation Keys');
  const part = (n: number): Buffer => expanded.subarray(n * KEY_LENGTH, (n + 1) * KEY_LENGTH);
  return {
    index: part(0),
    valueEncryption: part(1),
    valueMac: part(2),
    snapshotMac: part(3),
    patchMac: part(4),
  };
}

/** Encrypts one mutation under the key `keyId`: AES-256-CBC of the action data, its MAC, the index's MAC. */
export function sealMutation(keys: MutationKeys, keyId: Buffer, content: MutationContent): SealedMutation {
  const index = Buffer.from(JSON.stringify(content.index));
  const data = proto.SyncActionData.encode({
    index,
    value: content.value,
    padding: Buffer.alloc(0),
    version: content.apiVersion,
  }).finish();
  const iv = randomBytes(16);
  const cipher = createCipheriv('aes-256-cbc', keys.valueEncryption, iv);
  const encrypted = Buffer.concat([iv, cipher.update(data), cipher.final()]);
  const valueMac = mutationValueMac(keys.valueMac, content.operation, keyId, encrypted);
  const indexMac = hmacSha256(keys.index, index);
  return {
    mutation: {
      operation: content.operation,
      record: {
        index: { blob: indexMac },
        value: { blob: Buffer.concat([encrypted, valueMac]) },
        keyId: { id: keyId },
      },
    },
    indexMac,
    valueMac,
  };
}

/**
 * Opens a mutation encrypted under `keyId` (the account's key, the only one the phone has): checks the value MAC
 * over IV ‖ ciphertext, decrypts it (AES-256-CBC), decodes the `SyncActionData` and checks the index MAC against its
 * index. Throws `MutationRejected` when any of that fails.
 */
export function openMutation(
  keys: MutationKeys,
  keyId: Buffer,
  mutation: proto.ISyncdMutation,
): OpenedMutation {
  const record = mutation.record;
  const indexMac = record?.index?.blob;
  const blob = record?.value?.blob;
  const recordKeyId = record?.keyId?.id;
  if (!indexMac || !blob || !recordKeyId) throw new MutationRejected('incomplete mutation record');
  if (!keyId.equals(recordKeyId)) throw new MutationRejected('mutation under an unknown app-state key');
  // IV, at least one cipher block, the value MAC.
  if (blob.length < 16 + 16 + 32) throw new MutationRejected('mutation value too short');
  const operation = mutation.operation ?? proto.SyncdMutation.SyncdOperation.SET;
  const encrypted = Buffer.from(blob.subarray(0, -32));
  const valueMac = Buffer.from(blob.subarray(-32));
  if (!sameBytes(mutationValueMac(keys.valueMac, operation, keyId, encrypted), valueMac)) {
    throw new MutationRejected('value MAC mismatch');
  }
  const data = decryptValue(keys.valueEncryption, encrypted);
  const index = Buffer.from(data.index ?? []);
  if (!sameBytes(hmacSha256(keys.index, index), indexMac)) {
    throw new MutationRejected('index MAC mismatch');
  }
  return {
    operation,
    index: parseIndex(index),
    value: data.value ?? {},
    apiVersion: data.version ?? 0,
    indexMac: Buffer.from(indexMac),
    valueMac,
  };
}

/** Whether two MACs are equal, in constant time. */
export function sameBytes(a: Uint8Array, b: Uint8Array): boolean {
  return a.length === b.length && timingSafeEqual(a, b);
}

function decryptValue(key: Buffer, encrypted: Buffer): proto.SyncActionData {
  try {
    const decipher = createDecipheriv('aes-256-cbc', key, encrypted.subarray(0, 16));
    return proto.SyncActionData.decode(
      Buffer.concat([decipher.update(encrypted.subarray(16)), decipher.final()]),
    );
  } catch {
    throw new MutationRejected('mutation value does not decrypt');
  }
}

function parseIndex(index: Buffer): string[] {
  let parsed: unknown;
  try {
    parsed = JSON.parse(index.toString('utf8'));
  } catch {
    throw new MutationRejected('mutation index is not JSON');
  }
  if (!Array.isArray(parsed) || !parsed.every((part) => typeof part === 'string')) {
    throw new MutationRejected('mutation index is not a list of strings');
  }
  return parsed;
}

/** Folds one mutation into `state`: a write replaces the index's earlier value, a removal drops it. */
export function mixMutation(
  state: LtHashState,
  indexMac: Buffer,
  valueMac: Buffer,
  operation: proto.SyncdMutation.SyncdOperation | null | undefined,
): void {
  const key = indexMac.toString('base64');
  const previous = state.valueMacs.get(key);
  const removed = previous ? [previous] : [];
  if (operation === proto.SyncdMutation.SyncdOperation.REMOVE) {
    state.valueMacs.delete(key);
    state.hash = ltHashUpdate(state.hash, removed, []);
    return;
  }
  state.valueMacs.set(key, valueMac);
  state.hash = ltHashUpdate(state.hash, removed, [valueMac]);
}

/** HMAC-SHA512 over the operation byte and key id, the encrypted value and the length of the first part; 32 bytes. */
function mutationValueMac(
  key: Buffer,
  operation: proto.SyncdMutation.SyncdOperation,
  keyId: Buffer,
  encrypted: Buffer,
): Buffer {
  const opAndKey = Buffer.concat([
    Buffer.from([operation === proto.SyncdMutation.SyncdOperation.REMOVE ? 2 : 1]),
    keyId,
  ]);
  const length = Buffer.alloc(8);
  length.writeUInt32BE(opAndKey.length, 4);
  return createHmac('sha512', key).update(opAndKey).update(encrypted).update(length).digest().subarray(0, 32);
}

/**
 * The LT hash after taking `removed` value MACs out and putting `added` ones in: each MAC is expanded to 128 bytes
 * and summed as 64 little-endian 16-bit words, wrapping, so the result does not depend on the order of changes.
 */
export function ltHashUpdate(hash: Buffer, removed: readonly Buffer[], added: readonly Buffer[]): Buffer {
  const out = Buffer.from(hash);
  const mix = (mac: Buffer, sign: 1 | -1): void => {
    const expanded = hkdf(mac, 128, Buffer.alloc(0), LT_HASH_INFO);
    for (let offset = 0; offset < 128; offset += 2) {
      out.writeUInt16LE((out.readUInt16LE(offset) + sign * expanded.readUInt16LE(offset)) & 0xffff, offset);
    }
  };
  for (const mac of removed) mix(mac, -1);
  for (const mac of added) mix(mac, 1);
  return out;
}

/** The MAC of a collection's state at `version`: its LT hash, the version (64-bit big-endian) and its name. */
export function snapshotMac(keys: MutationKeys, hash: Buffer, version: number, name: string): Buffer {
  return hmacSha256(keys.snapshotMac, Buffer.concat([hash, uint64(version), Buffer.from(name)]));
}

/** The MAC of a patch: the snapshot MAC it leads to, its mutations' value MACs, its version and collection. */
export function patchMac(
  keys: MutationKeys,
  snapshot: Buffer,
  valueMacs: readonly Buffer[],
  version: number,
  name: string,
): Buffer {
  return hmacSha256(
    keys.patchMac,
    Buffer.concat([snapshot, ...valueMacs, uint64(version), Buffer.from(name)]),
  );
}

function uint64(value: number): Buffer {
  const out = Buffer.alloc(8);
  out.writeBigUInt64BE(BigInt(value));
  return out;
}
