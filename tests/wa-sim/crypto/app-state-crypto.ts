/**
 * App-state ("syncd") cryptography, as a primary phone writes a patch its companions decrypt: the five mutation keys
 * expanded from the shared app-state sync key, each mutation's encrypted value and MACs, the LT hash that sums a
 * collection's entries, and the snapshot and patch MACs over a version. Companions check the MACs when their
 * `appStateMacVerification` asks them to.
 */
import { createCipheriv, createHmac, randomBytes } from 'node:crypto';
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
